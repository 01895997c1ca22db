import { roomingCsv, type MailRow } from '../src/rooming/rooming.mail';

// The rooming list's CSV is opened by the hotel in a spreadsheet; its names come from the airline's roster.
it('a roster text a spreadsheet would run as a formula reaches the hotel as text', () => {
  const row: MailRow = {
    row_ref: 'R1',
    marking: 'NEW',
    crew_name: '=HYPERLINK("http://x.test","Ada")',
    rank: '+CA',
    pairing_number: '@P1',
    checkin_time_local: '2026-12-01T20:00',
    checkout_time_local: '2026-12-02T08:00',
    booking_id: 'b1',
  };
  const [, line] = roomingCsv([row]).split('\r\n');
  expect(line).toBe(`R1,NEW,"'=HYPERLINK(""http://x.test"",""Ada"")",'+CA,2026-12-01T20:00,2026-12-02T08:00,'@P1,b1`);
});
