/**
 * `npm run lockfile:complete` — run after `npm install`.
 *
 * The registry this project's machines reach serves only some platforms' prebuilt binaries (darwin and
 * win32 builds of @swc/core, say, answer 404). `npm install` then leaves those optional packages out of
 * package-lock.json, and `npm ci` refuses the lock file as out of sync with package.json. This adds the
 * missing optional entries, with the os/cpu/libc their names declare, so that `npm ci` accepts the lock file
 * and skips them on platforms they do not match (they are never downloaded here).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'loong64', 'riscv64', 'wasm32', 'mips64el'];

interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> {
  const tokens = name.split('/').pop()!.split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.find((t) => CPU.includes(t));
  const tail = tokens.join('-');
  const libc = /(^|-)musl/.test(tail) ? 'musl' : /(^|-)gnu/.test(tail) ? 'glibc' : undefined;
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}), ...(libc ? { libc: [libc] } : {}) };
}

function main(): void {
  const path = 'package-lock.json';
  const lock = JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, LockEntry> };
  let added = 0;
  for (const [key, entry] of Object.entries(lock.packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const at = `node_modules/${dep}`;
      const nested = `${key}/node_modules/${dep}`;
      if (lock.packages[at] || lock.packages[nested]) continue;
      const platform = platformOf(dep);
      if (!platform.os && !platform.cpu) continue; // not a platform build: a real omission, leave it to npm
      lock.packages[at] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
      added++;
    }
  }
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`package-lock.json: ${added} platform-specific optional entries added`);
}

main();
