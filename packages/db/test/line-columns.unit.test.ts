import fc from 'fast-check';
import type { InvoiceLineBody } from '@crew/contracts';
import { lineColumnsText, linesOfColumns } from '../src/invoices/line-columns';

/*
 * An invoice's lines kept as columns read back as the lines the hotel posted: every field, in their order, each
 * fee on its own line; a guest field left out reads null, a line without fees has none. Lines with an amount in
 * another currency than the invoice's are not kept so (null: the body as posted is read).
 */

const money = (currency: fc.Arbitrary<string>) =>
  fc.record({ amount: fc.double({ min: 0, max: 1e6, noNaN: true }), currency });

const line = (currency: fc.Arbitrary<string>) =>
  fc.record(
    {
      line_number: fc.integer({ min: 1, max: 1e6 }),
      confirmation_number: fc.option(fc.string({ maxLength: 12 })),
      employee_id: fc.string({ maxLength: 12 }),
      guest_name: fc.string({ maxLength: 30 }),
      check_in_date: fc.constantFrom('2027-02-28', '2027-03-01', '2027-03-31'),
      check_out_date: fc.constantFrom('2027-03-01', '2027-03-02', '2027-04-01'),
      nights: fc.integer({ min: 0, max: 366 }),
      nightly_rate: money(currency),
      taxes: money(currency),
      fees: fc.array(
        fc.record({ type: fc.constantFrom('NO_SHOW', 'LATE_CANCEL', 'INCIDENTAL'), amount: money(currency) }),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: ['line_number', 'check_in_date', 'check_out_date', 'nights', 'nightly_rate', 'taxes'] },
  ) as fc.Arbitrary<InvoiceLineBody>;

/** A posted line as the columns give it back. */
const asRead = (l: InvoiceLineBody) => ({
  line_number: l.line_number,
  confirmation_number: l.confirmation_number ?? null,
  employee_id: l.employee_id ?? null,
  guest_name: l.guest_name ?? null,
  check_in_date: l.check_in_date,
  check_out_date: l.check_out_date,
  nights: l.nights,
  nightly_rate: l.nightly_rate,
  taxes: l.taxes,
  fees: l.fees?.length ? l.fees : undefined,
});

test('lines in the invoice’s currency read back field for field, in their order', () => {
  fc.assert(
    fc.property(fc.array(line(fc.constant('EUR')), { maxLength: 40 }), (lines) => {
      const text = lineColumnsText(lines, 'EUR');
      expect(text).not.toBeNull();
      // Read twice: each reading gives every line again.
      const read = linesOfColumns(text!, 'EUR');
      expect([...read]).toEqual(lines.map(asRead));
      expect([...read]).toEqual(lines.map(asRead));
    }),
  );
});

test('a guest field no line fills is left out of the columns, and reads null', () => {
  const lines = [1, 2].map((n): InvoiceLineBody => ({
    line_number: n,
    employee_id: `E${n}`,
    check_in_date: '2027-03-01',
    check_out_date: '2027-03-02',
    nights: 1,
    nightly_rate: { amount: 180, currency: 'USD' },
    taxes: { amount: 18, currency: 'USD' },
  }));
  const text = lineColumnsText(lines, 'USD')!;
  expect(Object.keys(JSON.parse(text) as object)).not.toContain('guest_name');
  expect([...linesOfColumns(text, 'USD')].map((l) => [l.employee_id, l.guest_name, l.confirmation_number])).toEqual([
    ['E1', null, null],
    ['E2', null, null],
  ]);
});

test('an amount in another currency than the invoice’s: not kept as columns', () => {
  fc.assert(
    fc.property(
      fc.array(line(fc.constant('EUR')), { minLength: 1, maxLength: 10 }),
      fc.nat(),
      fc.constantFrom('nightly_rate', 'taxes', 'fee'),
      (lines, at, where) => {
        const i = at % lines.length;
        const usd = { amount: 1, currency: 'USD' };
        const l = lines[i]!;
        lines[i] =
          where === 'fee'
            ? { ...l, fees: [...(l.fees ?? []), { type: 'INCIDENTAL', amount: usd }] }
            : { ...l, [where]: usd };
        expect(lineColumnsText(lines, 'EUR')).toBeNull();
      },
    ),
  );
});
