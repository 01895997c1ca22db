/**
 * Deployment manifests against the code: every YAML under k8s/ and docker-compose.yml parses, the walk finds
 * the k8s files, and the variables come from EnvSchema. The checks of each kustomization, of the commands, of
 * docker-compose.yml and of the metrics are in the manifests-*.unit.test.ts files beside this one.
 */
import { dirname, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { configVariables, filesUnder, portVariable, read, variablesReadBy } from './manifests';

describe('every manifest parses', () => {
  it.each([...filesUnder('k8s', /\.ya?ml$/), 'docker-compose.yml'])('%s', (file) => {
    const docs = parseAllDocuments(read(file), { merge: true });
    expect(docs.flatMap((d) => d.errors.map((e) => e.message))).toEqual([]);
    expect(docs.length).toBeGreaterThan(0);
  });

  it('the variables come from EnvSchema, and the processes read them', () => {
    const vars = configVariables();
    expect([...vars.keys()]).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'REDIS_URL',
        'QUEUE_PREFIX',
        'AUTH_URL',
        'SUPPLIER_URL',
        'OPS_TOKEN',
        'LOG_LEVEL',
        'AUTO_RETRY_DELAYS',
        'NODE_ENV',
        'SHUTDOWN_DEADLINE_MS',
      ]),
    );
    expect([...variablesReadBy('worker')]).toEqual(
      expect.arrayContaining([
        'REDIS_URL',
        'QUEUE_PREFIX',
        'DATABASE_URL',
        'SUPPLIER_URL',
        'WORKER_PORT',
        'OPS_TOKEN',
        'NODE_ENV',
        'BOOKING_CONCURRENCY',
        'SUPPLIER_RATE_LIMIT_PER_SECOND',
      ]),
    );
    expect([...variablesReadBy('migrate')]).toEqual(expect.arrayContaining(['DATABASE_URL']));
    expect(variablesReadBy('migrate').has('OPS_TOKEN')).toBe(false);
    expect(portVariable('api')).toBe('API_PORT');
  });
});

it('lists the k8s files it checked', () => {
  // Guards the walk itself: a renamed folder must not silently check nothing.
  expect(
    filesUnder('k8s', /\.ya?ml$/)
      .map((f) => relative('k8s', f))
      .sort(),
  ).toEqual(
    expect.arrayContaining([
      'base/api.yaml',
      'base/auth.yaml',
      'base/kustomization.yaml',
      'base/migrate-job.yaml',
      'base/worker.yaml',
      'overlays/dev/kustomization.yaml',
      'overlays/dev/supplier-sandbox.yaml',
      'overlays/example/kustomization.yaml',
    ]),
  );
  expect(dirname('k8s/base/api.yaml')).toBe('k8s/base');
});
