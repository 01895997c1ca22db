import { http, type Stack, type Tenant } from '@crew/test-support';

/** One answer of the console, redirects not followed. */
export interface PageResult {
  status: number;
  location: string | null;
  text: string;
  headers: Headers;
  setCookies: string[];
}

/**
 * A browser's part in the console, over plain HTTP: a cookie jar, forms posted urlencoded with the page's
 * `csrf_token`, redirects left for the test to read.
 */
export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async send(path: string, init: RequestInit): Promise<PageResult> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', this.cookieHeader());
    const res = await fetch(`${this.baseUrl}${path}`, { ...init, headers, redirect: 'manual' });
    const setCookies = res.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c) || /max-age=0\b/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: res.status,
      location: res.headers.get('location'),
      text: await res.text(),
      headers: res.headers,
      setCookies,
    };
  }

  get(path: string): Promise<PageResult> {
    return this.send(path, { method: 'GET' });
  }

  post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<PageResult> {
    return this.send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Opens the page at `path` and posts its form with `fields` and the page's own `csrf_token`. */
  async submit(path: string, fields: Record<string, string>, action = path): Promise<PageResult> {
    const page = await this.get(path);
    return this.post(action, { csrf_token: csrfOf(page.text), ...fields });
  }

  async signIn(email: string, password: string, totp_code = ''): Promise<PageResult> {
    return this.submit('/console/sign-in', { email, password, ...(totp_code ? { totp_code } : {}) });
  }

  /**
   * Signs in as a client at `address` behind the ingress: the test connects over loopback, as the ingress does
   * over the cluster's network, so the api believes the X-Forwarded-For it sends.
   */
  async signInFrom(address: string, email: string, password: string, totp_code = ''): Promise<PageResult> {
    const page = await this.get('/console/sign-in');
    const form = { csrf_token: csrfOf(page.text), email, password, ...(totp_code ? { totp_code } : {}) };
    return this.post('/console/sign-in', form, { 'x-forwarded-for': address });
  }
}

/** What a sign-in came to: `signed in` (303 and a session cookie), `refused` (the form again, no session) or the status. */
export function outcome(r: PageResult): string {
  const session = r.setCookies.some((c) => /^console_session=[^;]/.test(c));
  if (r.status === 303 && session) return 'signed in';
  if (r.status === 200 && !session && r.text.includes('The e-mail, password or authenticator code is not right.'))
    return 'refused';
  return `${r.status}`;
}

/** The `csrf_token` of the first form of a page. */
export function csrfOf(page: string): string {
  const m = /name="csrf_token" value="([^"]*)"/.exec(page);
  if (!m) throw new Error(`no csrf_token on the page:\n${page.slice(0, 2000)}`);
  return m[1]!;
}

/** The path of an invitation link (the stack's api may listen elsewhere than PUBLIC_API_URL). */
export const invitePath = (inviteUrl: string) => new URL(inviteUrl).pathname;

export function inviteConsoleUser(stack: Stack, t: Tenant, email: string, role: 'AGENT' | 'VIEWER' = 'AGENT') {
  return http(`${stack.apiUrl}/api/v1/crew/console-users`, {
    method: 'POST',
    token: t.accessToken,
    body: { email, role },
  });
}

/** An invited person who has set their password: their user id. */
export async function consoleUserWithPassword(
  stack: Stack,
  t: Tenant,
  email: string,
  password: string,
  role: 'AGENT' | 'VIEWER' = 'AGENT',
): Promise<string> {
  const created = await inviteConsoleUser(stack, t, email, role);
  if (created.status !== 201) throw new Error(`invite: ${created.status} ${created.text}`);
  const browser = new ConsoleClient(stack.apiUrl);
  const path = invitePath(created.body.invite_url);
  const set = await browser.submit(path, { password, password_repeat: password });
  if (set.status !== 303) throw new Error(`set password: ${set.status} ${set.text}`);
  return created.body.user_id as string;
}
