import { dirname, join } from 'node:path';
import type { Express } from 'express';
import helmet from 'helmet';

export const DOCS_PATH = '/docs';

/** Only these files of swagger-ui-dist are served (its own index.html and initializer point at the petstore). */
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'];

/* helmet's CSP allows scripts from 'self' only: the page loads its initializer as a file, no inline script. */
const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Crew Travel Booking Service API</title>
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js" charset="utf-8"></script>
  <script src="${DOCS_PATH}/init.js" charset="utf-8"></script>
</body>
</html>
`;

const init = (specUrl: string) => `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(specUrl)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

/**
 * Swagger UI at /docs from the locally installed swagger-ui-dist (no CDN), reading `specUrl`. "Authorize"
 * fetches a token from the auth service (`authUrl`, another origin, which answers CORS): the page's CSP
 * lets it connect there.
 */
export function mountDocs(app: Express, specUrl: string, authUrl: string): void {
  const dir = dirname(require.resolve('swagger-ui-dist/package.json'));
  const script = init(specUrl);
  const csp = helmet.contentSecurityPolicy({ directives: { connectSrc: ["'self'", new URL(authUrl).origin] } });
  app.get(DOCS_PATH, csp, (_req, res) => {
    res.type('html').send(PAGE);
  });
  app.get(`${DOCS_PATH}/init.js`, (_req, res) => {
    res.type('application/javascript').send(script);
  });
  for (const file of ASSETS) {
    app.get(`${DOCS_PATH}/${file}`, (_req, res, next) => {
      res.sendFile(join(dir, file), { maxAge: '1h' }, (err) => err && next(err));
    });
  }
}
