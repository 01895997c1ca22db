// Preloaded (node -r NO_TSX_PRELOAD) into a built process by test/build.test.ts: loading tsx fails, in the main
// thread and in every worker thread (which inherit execArgv), so a production start that still needs tsx is caught.
const Module = require('node:module');

const load = Module._load;
Module._load = function (request, ...rest) {
  if (/^tsx(\/|$)/.test(request)) throw new Error(`tsx loaded at runtime: ${request}`);
  return load.call(this, request, ...rest);
};
