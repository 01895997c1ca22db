/**
 * `npm run ops -- <command> [args]`: a thin CLI over the operator API (/ops/v1).
 * Reads API_URL (default http://127.0.0.1:$API_PORT) and OPS_TOKEN from the environment (else the .ops-token
 * that `npm start` wrote).
 */
import { existsSync, readFileSync } from 'node:fs';

const API = (process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 3000}`).replace(/\/+$/, '');
// `npm start` writes the development operator token to .ops-token: used when OPS_TOKEN is not exported.
const TOKEN = process.env.OPS_TOKEN || (existsSync('.ops-token') ? readFileSync('.ops-token', 'utf8').trim() : '');

const USAGE = `usage: npm run ops -- <command>
  airlines                                   list airlines
  create-airline <name> <carrier_code>       create an airline
  settings <airline_id>                      show the operator levers
  set <airline_id> <lever>=<value> …         change levers (booleans, STRICT/LOOSE, numbers)
  create-user <airline_id> <email>           create a user (prints the register credential once)
  traveller <airline_id> <email> [employee_id=… first_name=… last_name=… date_of_birth=YYYY-MM-DD]
  change-requests [status]                   list hotel change requests of every airline
  decide <request_id> APPROVED|DECLINED <decided_by> [note]
  fx <currency> <rate> [as_of YYYY-MM-DD] [set_by]   set an exchange rate: USD per 1 unit of <currency>, from as_of (default today)
  fx-rates [currency]                        list the exchange rates (every date each was set)
  resend-rooming-list <list_id>              e-mail a DIRECT hotel's rooming list version again (same rows and references;
                                             refused for a list answered or past its deadline)
  suppliers <airline_id>                     show the airline's supplier order and connections (no secrets)
  set-suppliers <airline_id> flights=A,B hotels=A,B [--duffel-token | --no-duffel]
                [own_airline_url=https://… own_airline_carrier=XX [--own-airline-secret] | --no-own-airline]
                                             set the supplier order (SANDBOX, DUFFEL, OWN_AIRLINE); secrets are read
                                             from standard input, one per line, in the order of their flags
env: API_URL (default http://127.0.0.1:$API_PORT, API_PORT default 3000), OPS_TOKEN (default: the .ops-token npm start wrote)`;

function parseValue(v: string): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^-?\d+$/.test(v)) return Number(v);
  return v;
}

function pairs(args: string[], parse = true): Record<string, unknown> {
  return Object.fromEntries(
    args.map((a) => {
      const i = a.indexOf('=');
      if (i <= 0) throw new Error(`expected key=value, got "${a}"`);
      return [a.slice(0, i), parse ? parseValue(a.slice(i + 1)) : a.slice(i + 1)];
    }),
  );
}

async function call(method: string, path: string, body?: unknown): Promise<number> {
  const url = `${API}/ops/v1${path}`;
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((err: Error & { cause?: { code?: string } }) => {
    throw new Error(
      `cannot reach the api at ${url} (${err.cause?.code ?? err.message}); is it running? set API_URL or API_PORT`,
    );
  });
  const text = await res.text();
  try {
    console.log(JSON.stringify(JSON.parse(text), null, 2));
  } catch {
    console.log(text);
  }
  return res.ok ? 0 : 1;
}

/** Lines of standard input (a token never goes on the command line, where `ps` and shell history see it). */
async function stdinLines(): Promise<string[]> {
  if (process.stdin.isTTY) console.error('reading the secret(s) from standard input, one per line; end with Ctrl-D');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

async function supplierBody(args: string[]): Promise<Record<string, unknown>> {
  const flags = args.filter((a) => a.startsWith('--'));
  const kv = pairs(
    args.filter((a) => !a.startsWith('--')),
    false,
  ) as Record<string, string>;
  const secretFlags: string[] = flags.filter((f) => f === '--duffel-token' || f === '--own-airline-secret');
  const secrets = secretFlags.length > 0 ? await stdinLines() : [];
  const secret = (flag: string) => {
    const value = secrets[secretFlags.indexOf(flag)];
    if (!value) throw new Error(`${flag}: no line for it on standard input`);
    return value;
  };
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((x) => x.trim().toUpperCase())
      .filter(Boolean);
  return {
    flights: list(kv.flights),
    hotels: list(kv.hotels),
    ...(flags.includes('--no-duffel')
      ? { duffel: null }
      : flags.includes('--duffel-token')
        ? { duffel: { access_token: secret('--duffel-token') } }
        : {}),
    ...(flags.includes('--no-own-airline')
      ? { own_airline: null }
      : kv.own_airline_url
        ? {
            own_airline: {
              url: kv.own_airline_url,
              carrier: kv.own_airline_carrier,
              ...(flags.includes('--own-airline-secret') ? { signing_secret: secret('--own-airline-secret') } : {}),
            },
          }
        : {}),
  };
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...args] = argv;
  if (!TOKEN && cmd) {
    console.error('OPS_TOKEN is not set (npm start prints the operator token)');
    return 2;
  }
  const enc = encodeURIComponent;
  switch (cmd) {
    case 'airlines':
      return call('GET', '/airlines');
    case 'create-airline':
      if (args.length !== 2) break;
      return call('POST', '/airlines', { name: args[0], carrier_code: args[1] });
    case 'settings':
      if (args.length !== 1) break;
      return call('GET', `/airlines/${enc(args[0]!)}/settings`);
    case 'set':
      if (args.length < 2) break;
      return call('PATCH', `/airlines/${enc(args[0]!)}/settings`, pairs(args.slice(1)));
    case 'create-user':
      if (args.length !== 2) break;
      return call('POST', `/airlines/${enc(args[0]!)}/users`, { email: args[1] });
    case 'traveller':
      if (args.length < 2) break;
      return call('PUT', `/airlines/${enc(args[0]!)}/travellers/${enc(args[1]!)}`, pairs(args.slice(2), false));
    case 'change-requests':
      return call('GET', `/change-requests${args[0] ? `?status=${enc(args[0])}` : ''}`);
    case 'decide':
      if (args.length < 3) break;
      return call('POST', `/change-requests/${enc(args[0]!)}/decide`, {
        decision: args[1],
        decided_by: args[2],
        ...(args[3] ? { note: args.slice(3).join(' ') } : {}),
      });
    case 'fx':
      if (args.length < 2 || args.length > 4) break;
      return call('PUT', `/fx-rates/${enc(args[0]!.toUpperCase())}`, {
        rate: Number(args[1]),
        ...(args[2] ? { as_of: args[2] } : {}),
        ...(args[3] ? { set_by: args[3] } : {}),
      });
    case 'fx-rates':
      return call('GET', `/fx-rates${args[0] ? `?currency=${enc(args[0].toUpperCase())}` : ''}`);
    case 'suppliers':
      if (args.length !== 1) break;
      return call('GET', `/airlines/${enc(args[0]!)}/suppliers`);
    case 'set-suppliers': {
      if (args.length < 2) break;
      return call('PUT', `/airlines/${enc(args[0]!)}/suppliers`, await supplierBody(args.slice(1)));
    }
    case 'resend-rooming-list':
      if (args.length !== 1) break;
      return call('POST', `/rooming-lists/${enc(args[0]!)}/resend`);
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
