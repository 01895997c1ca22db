/**
 * The example overlay's Ingress against the code: every entry point reached from outside the cluster is routed
 * to the process that serves it, and the cluster-internal paths (probes, metrics) are not.
 */
import { kustomize, read, type Doc } from './manifests';

interface IngressPath {
  path: string;
  pathType: 'Prefix' | 'Exact' | 'ImplementationSpecific';
  backend: { service: { name: string } };
}

// As the overlay deploys it (its kustomization's resources), not the file alone.
const ingress = kustomize('k8s/overlays/example').docs.find((d) => d.kind === 'Ingress')!;

/** The service a request path on this host reaches (Kubernetes' Prefix matches whole path elements). */
function routedTo(host: string, path: string): string | null {
  const rule = (ingress.spec.rules as Doc[]).find((r) => r.host === host);
  const match = ((rule?.http.paths ?? []) as IngressPath[]).find((p) => {
    if (p.pathType === 'Exact') return p.path === path;
    const prefix = p.path.replace(/\/$/, '');
    return path === prefix || path.startsWith(`${prefix}/`);
  });
  return match?.backend.service.name ?? null;
}

const API_HOST = 'api.crew-travel.example.com';
const AUTH_HOST = 'auth.crew-travel.example.com';

/** [a request path from outside, who sends it, the file that declares it, the literal declared there]. */
const API_ENTRY_POINTS: [string, string, string, string][] = [
  ['/api/v1/crew/schedules', 'an integration', 'packages/contracts/src/routes.ts', "'/api/v1'"],
  ['/ops/v1/airlines', 'an operator', 'services/api/src/deps.ts', "'/ops/v1'"],
  ['/docs', 'an integrator', 'services/api/src/operability/docs.ts', "'/docs'"],
  ['/openapi.json', 'an integrator', 'services/api/src/operability/index.ts', "'/openapi.json'"],
  ['/admin/queues', 'an operator', 'services/api/src/operability/queue-dashboard.ts', "'/admin/queues'"],
  ['/console', "the travel desk's browsers", 'services/api/src/console/context.ts', "'/console'"],
  [
    '/console/invite/abc',
    'a person invited to the console',
    'services/api/src/console/console-users.routes.ts',
    '/invite/',
  ],
  [
    '/hotel/rooming-lists/abc',
    "a hotel, through a rooming list's signed link",
    'packages/rooming/src/link.ts',
    "'/hotel/rooming-lists'",
  ],
  [
    '/callbacks/duffel/abc',
    "Duffel's webhook deliveries",
    'services/api/src/callbacks/duffel.callback.ts',
    "'/callbacks/duffel/:airline_id'",
  ],
  [
    '/callbacks/own-airline/abc',
    "the airline's own reservation system",
    'services/api/src/callbacks/own-airline.callback.ts',
    "'/callbacks/own-airline/:airline_id'",
  ],
];

describe('the example Ingress', () => {
  it.each(API_ENTRY_POINTS)('routes %s (%s) to the api', (path, _who, file, literal) => {
    expect(read(file)).toContain(literal);
    expect(routedTo(API_HOST, path)).toBe('api');
  });

  it.each(['/oauth/token', '/.well-known/jwks.json'])('routes %s to auth', (path) => {
    expect(read('services/auth/src/app.ts')).toContain(`'${path}'`);
    expect(routedTo(AUTH_HOST, path)).toBe('auth');
  });

  it.each(['/metrics', '/healthz', '/readyz'])('keeps %s cluster-internal on both hosts', (path) => {
    expect([routedTo(API_HOST, path), routedTo(AUTH_HOST, path)]).toEqual([null, null]);
  });
});
