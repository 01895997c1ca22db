/**
 * The layering, checked (`npm run lint:deps`, part of `npm test`): which way imports may go between the packages
 * and services of this repository. docs/architecture.md says why; each rule's comment says what it forbids.
 * Paths are as resolved: `@crew/db` is packages/db/src/index.ts.
 */

/** Test code: any test folder, and the test support package (it starts the whole stack, services included). */
const TESTS = ['(^|/)test/', '^packages/test-support/'];
/** Developer tooling that may use test support too: the benchmarks and the screenshots script. Never shipped. */
const TOOLING = ['^bench/', '^scripts/screenshots\\.ts$'];
/** A package's or service's entry point: the only file another package or service may import. */
const ENTRY = '^(packages|services)/[^/]+/src/index\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle, type-only imports included: split out what both sides need.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'package-not-to-service',
      severity: 'error',
      comment:
        'Services build on packages, never the reverse. Test support is the exception: it starts the services for tests.',
      from: { path: '^packages/', pathNot: TESTS },
      to: { path: '^services/' },
    },
    {
      name: 'service-not-to-other-service',
      severity: 'error',
      comment:
        'A service never imports another service: what two services share goes into a package. (Tests may start other services.)',
      from: { path: '^services/([^/]+)/src/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'engine-only-contracts',
      severity: 'error',
      comment:
        'The engine is pure rules: it imports only @crew/contracts (no Node module, no library, no other package).',
      from: { path: '^packages/engine/src/' },
      to: { pathNot: '^packages/(engine|contracts)/' },
    },
    {
      name: 'contracts-at-the-bottom',
      severity: 'error',
      comment: 'The contracts (schemas and types of the interface) import no other package or service.',
      from: { path: '^packages/contracts/src/' },
      to: { path: '^(packages|services)/', pathNot: '^packages/contracts/' },
    },
    {
      name: 'repository-not-to-repository',
      severity: 'error',
      comment:
        'A repository never imports another repository: what two repositories share is a module of its own, and a ' +
        'step that writes through several repositories belongs to its caller.',
      from: { path: '^packages/db/src/.+\\.repository\\.ts$' },
      to: { path: '^packages/db/src/.+\\.repository\\.ts$' },
    },
    {
      name: 'import-packages-by-name',
      severity: 'error',
      comment: 'Another package or service is imported by its name (@crew/x), never by a relative path into it.',
      from: { path: '^(packages|services)/([^/]+)/' },
      to: { path: '^(packages|services)/', pathNot: '^$1/$2/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'import-packages-by-name-from-root',
      severity: 'error',
      comment: 'Root tests, scripts and benchmarks import a package or service by its name, never by a relative path.',
      from: { pathNot: '^(packages|services)/' },
      to: { path: '^(packages|services)/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'no-deep-import',
      severity: 'error',
      comment:
        'Another package or service is imported through its index (@crew/x), never @crew/x/src/… or @crew/x/test/….',
      from: { path: '^(packages|services)/([^/]+)/' },
      to: { path: '^(packages|services)/', pathNot: ['^$1/$2/', ENTRY] },
    },
    {
      name: 'no-deep-import-from-root',
      severity: 'error',
      comment: 'Root tests, scripts and benchmarks import a package or service through its index too.',
      from: { pathNot: '^(packages|services)/' },
      to: { path: '^(packages|services)/', pathNot: ENTRY },
    },
    {
      name: 'test-support-only-in-tests',
      severity: 'error',
      comment: 'Test support is for tests (and the benchmarks and screenshots script); nothing shipped imports it.',
      from: { pathNot: [...TESTS, ...TOOLING] },
      to: { path: '^packages/test-support/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        "Every import resolves. `@duffel/api/types` is a type-only module that @duffel/api's typings declare (no file).",
      from: {},
      to: { couldNotResolve: true, pathNot: '^@duffel/api/types$' },
    },
  ],
  options: {
    // Libraries are leaves of the graph (named, not walked into); builds are not sources.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|(packages|services)/[^/]+/dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Libraries resolve through their `exports` maps, as Node and TypeScript resolve them (csv-stringify/sync).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    // Type-only imports count: a circle of types is still a circle.
    tsPreCompilationDeps: true,
    combinedDependencies: true,
  },
};
