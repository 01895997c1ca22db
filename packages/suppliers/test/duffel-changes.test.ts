import { duffelSignatureHeader, parseDuffelEvent, verifyDuffelSignature } from '../src/index';

const SECRET = 'whsec-of-the-airline';
const BODY = JSON.stringify({
  id: 'wev_1',
  type: 'order.airline_initiated_change_detected',
  data: { object: { id: 'aic_1', order_id: 'ord_1' } },
});
const NOW = Date.parse('2026-11-27T10:00:00Z');

describe('verifyDuffelSignature', () => {
  test("accepts Duffel's t=…,v1=… over the exact body with the webhook's secret", () => {
    expect(verifyDuffelSignature(Buffer.from(BODY), duffelSignatureHeader(BODY, SECRET, NOW), SECRET, NOW)).toBe(true);
  });

  test('refuses another secret, a changed body, a missing or malformed header', () => {
    const header = duffelSignatureHeader(BODY, SECRET, NOW);
    expect(verifyDuffelSignature(BODY, header, 'another', NOW)).toBe(false);
    expect(verifyDuffelSignature(BODY.replace('ord_1', 'ord_2'), header, SECRET, NOW)).toBe(false);
    expect(verifyDuffelSignature(BODY, undefined, SECRET, NOW)).toBe(false);
    expect(verifyDuffelSignature(BODY, 'v1=abc', SECRET, NOW)).toBe(false);
  });

  test('refuses a delivery signed more than five minutes from our clock (a replay)', () => {
    const old = duffelSignatureHeader(BODY, SECRET, NOW - 301_000);
    expect(verifyDuffelSignature(BODY, old, SECRET, NOW)).toBe(false);
    expect(verifyDuffelSignature(BODY, duffelSignatureHeader(BODY, SECRET, NOW - 299_000), SECRET, NOW)).toBe(true);
  });
});

describe('parseDuffelEvent', () => {
  test('names the change and its order; anything else is null', () => {
    expect(parseDuffelEvent(BODY)).toEqual({
      id: 'wev_1',
      type: 'order.airline_initiated_change_detected',
      object_id: 'aic_1',
      order_id: 'ord_1',
      reference: null,
    });
    expect(parseDuffelEvent('not json')).toBeNull();
    expect(parseDuffelEvent('{"type":"x"}')).toBeNull();
  });

  test("order.created carries the order: its id and our reference from the order's metadata", () => {
    const created = { id: 'wev_2', type: 'order.created', data: { object: { id: 'ord_9', metadata: {} } } };
    expect(parseDuffelEvent(JSON.stringify(created))).toMatchObject({ object_id: 'ord_9', reference: null });
    created.data.object.metadata = { crew_reference: 'book:b-1' };
    expect(parseDuffelEvent(JSON.stringify(created))).toMatchObject({ object_id: 'ord_9', reference: 'book:b-1' });
  });
});
