/**
 * The processes the manifests start: every command runs a file `npm run build` produces with plain node, and
 * docker-compose.yml runs every process with every variable it reads and health checks a path it serves.
 */
import { builtFiles } from '../scripts/build-targets';
import { parse } from 'yaml';
import { type Doc, K8S_DIRS, kustomize, portVariable, processOf, read, serves, variablesReadBy } from './manifests';

describe('every command runs a file `npm run build` produces, with plain node', () => {
  const built = new Set(builtFiles());
  /** The file a `node …` command runs, or why the command is not one. */
  const nodeFile = (command: string[]): string => {
    if (command[0] !== 'node') return `not node: ${command.join(' ')}`;
    if (command.some((a) => a.includes('tsx'))) return `tsx at runtime: ${command.join(' ')}`;
    return command.slice(1).find((a) => !a.startsWith('-')) ?? `no file: ${command.join(' ')}`;
  };
  const dockerCmd = (() => {
    const cmd = JSON.parse(/^CMD (.*)$/m.exec(read('Dockerfile'))![1]!) as string[];
    expect(cmd.slice(0, 2)).toEqual(['sh', '-c']);
    return (service: string) =>
      cmd[2]!
        .replace(/^exec /, '')
        .replace('${SERVICE}', service)
        .split(/\s+/);
  })();
  /** A container's command, or the image's CMD for its SERVICE. */
  const commandOf = (command: string[] | undefined, env: Record<string, string>, name: string) =>
    command ? [...command] : dockerCmd(env.SERVICE ?? name);

  it('the image runs services/<SERVICE>/dist/main.js for every service', () => {
    for (const service of ['api', 'worker', 'auth', 'supplier-sandbox'])
      expect([service, nodeFile(dockerCmd(service))]).toEqual([service, `services/${service}/dist/main.js`]);
    for (const f of ['api', 'worker', 'auth', 'supplier-sandbox'].map((s) => `services/${s}/dist/main.js`))
      expect([f, built.has(f)]).toEqual([f, true]);
  });

  it.each(K8S_DIRS)('%s', (dir) => {
    for (const d of kustomize(dir).docs.filter((x) => x.kind === 'Deployment' || x.kind === 'Job')) {
      const pod = d.spec.template.spec;
      for (const c of [...(pod.initContainers ?? []), ...pod.containers] as Doc[]) {
        if (!String(c.image).startsWith('crew-travel')) continue;
        const env = Object.fromEntries(
          ((c.env ?? []) as Doc[]).filter((e) => e.value !== undefined).map((e) => [e.name, String(e.value)]),
        );
        const file = nodeFile(commandOf(c.command && [...c.command, ...(c.args ?? [])], env, c.name));
        expect([d.metadata.name, c.name, file, built.has(file)]).toEqual([d.metadata.name, c.name, file, true]);
      }
    }
  });

  it('docker-compose.yml', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Doc> };
    for (const [name, s] of Object.entries(compose.services).filter(
      ([, x]) => x.build !== undefined || String(x.image).startsWith('crew-travel'),
    )) {
      const file = nodeFile(commandOf(s.command, s.environment ?? {}, name));
      expect([name, file, built.has(file)]).toEqual([name, file, true]);
    }
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Doc> };
  const ours = Object.entries(compose.services).filter(
    ([, s]) => s.build !== undefined || String(s.image).startsWith('crew-travel'),
  );
  const envOf = (s: Doc): Record<string, string> =>
    Array.isArray(s.environment)
      ? Object.fromEntries((s.environment as string[]).map((l) => [l.split('=')[0], l.slice(l.indexOf('=') + 1)]))
      : (s.environment ?? {});
  const processOfService = (name: string, s: Doc) => processOf(s, envOf(s)) ?? name;

  it('runs every process', () => {
    expect(ours.map(([name, s]) => processOfService(name, s)).sort()).toEqual([
      'api',
      'auth',
      'migrate',
      'supplier-sandbox',
      'worker',
    ]);
  });

  it('gives each service every variable its process reads', () => {
    const missing = Object.fromEntries(
      ours.map(([name, s]) => [
        name,
        [...variablesReadBy(processOfService(name, s))].filter((v) => envOf(s)[v] === undefined),
      ]),
    );
    expect(missing).toEqual(Object.fromEntries(ours.map(([name]) => [name, []])));
  });

  it('health checks a path the process serves, on the port it listens on', () => {
    for (const [name, s] of ours) {
      const process = processOfService(name, s);
      if (process === 'migrate') continue;
      const check = [s.healthcheck?.test].flat().join(' ');
      const url = /https?:\/\/[^/'"\s]+:(\d+)(\/[^'"\s)]*)/.exec(check);
      expect([name, url !== null]).toEqual([name, true]);
      expect([name, url![2], serves(process, url![2]!)]).toEqual([name, url![2], true]);
      expect([name, url![1]]).toEqual([name, envOf(s)[portVariable(process)!]]);
    }
  });
});
