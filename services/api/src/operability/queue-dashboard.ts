import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Express, RequestHandler } from 'express';
import { ErrorCode } from '@crew/contracts';
import { ApiError, basicCredentials, bearerToken, safeEqual } from '@crew/platform';

export const DASHBOARD_PATH = '/admin/queues';

/** The operator token as HTTP Basic password (any user name; what a browser prompts for) or as Bearer. */
export function operatorOnly(opsToken: string): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers.authorization;
    let given = bearerToken(header);
    if (given === null) {
      try {
        given = basicCredentials(header)?.secret ?? null;
      } catch {
        // Malformed percent-encoding in the credentials: no credentials.
      }
    }
    if (given !== null && safeEqual(given, opsToken)) return next();
    next(
      new ApiError(
        401,
        ErrorCode.UNAUTHORIZED,
        'The operator token is required (HTTP Basic with any user name and the token as password, or Bearer)',
        [],
        {
          'WWW-Authenticate': 'Basic realm="crew-travel operators", charset="UTF-8"',
        },
      ),
    );
  };
}

/** What the board may change: retrying failed jobs (all of a queue, or one). */
const RETRY_PATHS = [/^\/api\/queues\/[^/]+\/retry\/failed\/?$/, /^\/api\/queues\/[^/]+\/[^/]+\/retry\/?$/];

/**
 * bull-board's `readOnlyMode` only hides buttons (its API still accepts every action) and, in this version,
 * also hides retries. So the board shows the retry buttons and this guard makes the rest read-only.
 */
const retriesOnly: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  if (req.method === 'PUT' && RETRY_PATHS.some((re) => re.test(req.path))) return next();
  next(
    new ApiError(
      405,
      ErrorCode.METHOD_NOT_ALLOWED,
      'The queue dashboard is read-only; operators may only retry failed jobs',
      [],
      { Allow: 'GET, HEAD' },
    ),
  );
};

/**
 * bull-board's page loads its fonts from Google Fonts: an on-call laptop offline, or a strict CSP, would wait on
 * or refuse them. Its stylesheet falls back to the system fonts, so the page is served without a `<link>` to
 * another host (its own assets are relative to its base).
 */
const OUTSIDE_LINKS = /<link\b[^>]*\bhref="(https?:)?\/\/[^>]*>\s*/gi;
const withoutOutsideLinks: RequestHandler = (req, res, next) => {
  if (!req.path.startsWith('/api/')) {
    const send = res.send.bind(res);
    res.send = (body?: unknown) => send(typeof body === 'string' ? body.replace(OUTSIDE_LINKS, '') : body);
  }
  next();
};

type AdapterOptions = NonNullable<ConstructorParameters<typeof BullMQAdapter>[1]>;

/** bull-board on every given queue, behind the operator token. */
export function mountQueueDashboard(app: Express, queues: readonly Queue[], opsToken: string): void {
  const serverAdapter = new ExpressAdapter().setBasePath(DASHBOARD_PATH);
  // allowCompletedRetries is read by the adapter's base class but missing from the constructor's type.
  const options: AdapterOptions & { allowCompletedRetries: boolean } = {
    readOnlyMode: false,
    allowRetries: true,
    allowCompletedRetries: false,
  };
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, options)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Crew Travel queues', hideDocsLink: true } },
  });
  app.use(
    DASHBOARD_PATH,
    operatorOnly(opsToken),
    retriesOnly,
    withoutOutsideLinks,
    serverAdapter.getRouter() as RequestHandler,
  );
}
