import { http, type Stack, startStack } from '@crew/test-support';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack('queue_dashboard_assets');
});
afterAll(() => stack.close());

const basic = (password: string) => `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`;

/** Every absolute URL (scheme or protocol-relative) in a page or stylesheet whose origin is not `origin`. */
function outsideUrls(text: string, origin: string): string[] {
  return [...text.matchAll(/(?:https?:)?\/\/[A-Za-z0-9.-]+(?::\d+)?/g)]
    .map((m) => (m[0].startsWith('//') ? `http:${m[0]}` : m[0]))
    .filter((u) => new URL(u).origin !== origin);
}

describe('the queue dashboard', () => {
  it('loads nothing from another host: its page and the stylesheets it links stay on the api (system fonts)', async () => {
    const authorization = basic(stack.opsToken);
    const origin = new URL(stack.apiUrl).origin;
    for (const page of ['/admin/queues', '/admin/queues/queue/bookings']) {
      const res = await http(`${stack.apiUrl}${page}`, { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).not.toMatch(/fonts\.(googleapis|gstatic)\.com/);
      // The page's own links (href, src) and its markup: no other origin.
      const refs = [...res.text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
      expect(refs.filter((r) => /^(https?:)?\/\//.test(r) && new URL(r, origin).origin !== origin)).toEqual([]);
      expect(outsideUrls(res.text, origin)).toEqual([]);

      const base = new URL(/<base href="([^"]+)"/.exec(res.text)![1]!, origin);
      const stylesheets = [...res.text.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)].map(
        (m) => /\bhref="([^"]+)"/.exec(m[0])![1]!,
      );
      expect(stylesheets.length).toBeGreaterThan(0);
      for (const href of stylesheets) {
        const css = await http(new URL(href, base).href, { headers: { authorization } });
        expect(css.status).toBe(200);
        expect(css.text).not.toMatch(/fonts\.(googleapis|gstatic)\.com/);
        expect(outsideUrls(css.text, origin)).toEqual([]);
        expect(css.text).not.toMatch(/@import\s+(url\()?["']?(https?:)?\/\//);
      }
    }
  });
});
