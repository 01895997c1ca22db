import { startSandbox, type RunningSandbox, type StartOptions } from '../src/server';

/** 2025-06-01T10:00:00Z: a fixed start so the tests never depend on the real date. */
export const T0 = Date.parse('2025-06-01T10:00:00Z');

export interface TestSandbox extends RunningSandbox {
  /** Moves the injected clock. */
  tick: (ms: number) => void;
  call: (method: string, path: string, body?: unknown, signal?: AbortSignal) => Promise<{ status: number; body: any }>;
}

/** An in-process sandbox on 127.0.0.1:<free port>, with an injected clock. */
export async function start(options: StartOptions = {}): Promise<TestSandbox> {
  let now = T0;
  const running = await startSandbox({ clock: () => now, ...options });
  return {
    ...running,
    tick: (ms) => {
      now += ms;
    },
    call: async (method, path, body, signal) => {
      const res = await fetch(running.baseUrl + path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

export const traveller = { email: 'ana.silva@crew.example', name: 'Ana Silva' };
export const flyer = {
  email: 'ana.silva@crew.example',
  first_name: 'Ana',
  last_name: 'Silva',
  date_of_birth: '1988-04-12',
};
export const booker = 'crew-booking@airline.example';

export function hotelBooking(reference: string, overrides: Record<string, unknown> = {}) {
  return {
    reference,
    property_id: 'GDS-LHR-001',
    check_in_date: '2025-06-10',
    check_out_date: '2025-06-12',
    traveller,
    booker_email: booker,
    ...overrides,
  };
}
