import { stringify } from 'csv-stringify/sync';
import nodemailer from 'nodemailer';
import { csvCell } from '@crew/platform';

/** One row as the hotel reads it. */
export interface MailRow {
  row_ref: string;
  marking: 'NEW' | 'AMENDED' | 'CANCELLED';
  crew_name: string | null;
  rank: string | null;
  pairing_number: string | null;
  checkin_time_local: string;
  checkout_time_local: string;
  booking_id: string;
}

export interface RoomingMail {
  to: string;
  hotelName: string;
  airlineName: string;
  night: string;
  version: number;
  resend: boolean;
  rows: MailRow[];
  link: string;
  deadline: Date;
}

export const CSV_COLUMNS = [
  'row_ref',
  'change',
  'crew_name',
  'rank',
  'check_in_local',
  'check_out_local',
  'pairing_number',
  'booking_reference',
] as const;

/** The list as a CSV attachment (RFC 4180): one line per row, the change marked in its own column; no cell a formula. */
export function roomingCsv(rows: readonly MailRow[]): string {
  return stringify(
    rows.map((r) =>
      [
        r.row_ref,
        r.marking,
        r.crew_name,
        r.rank,
        r.checkin_time_local,
        r.checkout_time_local,
        r.pairing_number,
        r.booking_id,
      ].map(csvCell),
    ),
    { header: true, columns: [...CSV_COLUMNS], record_delimiter: '\r\n' },
  );
}

export function roomingText(m: RoomingMail): string {
  const lines = m.rows.map(
    (r) =>
      `  [${r.marking}] ${r.row_ref}  ${r.crew_name ?? ''} (${r.rank ?? '-'})  in ${r.checkin_time_local}  out ${r.checkout_time_local}  pairing ${r.pairing_number ?? '-'}`,
  );
  return [
    `Rooming list of ${m.airlineName} for ${m.hotelName}, night of ${m.night} (version ${m.version}${m.resend ? ', sent again: the same rows as before, nothing new' : ''}).`,
    '',
    'Changes (NEW: a room to hold; AMENDED: the stay with this reference changed; CANCELLED: release it):',
    ...lines,
    '',
    `Please confirm the list (with your confirmation numbers) or reject rows with a reason by ${m.deadline.toISOString()}:`,
    m.link,
    '',
    'The link is personal to your hotel and this list; it expires at that time. The same list is attached as CSV.',
    'Each row keeps its reference in every version of the list: a row you already hold is never a second room.',
  ].join('\n');
}

export interface Mailer {
  send(m: RoomingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** Sends through the SMTP server of SMTP_URL. No pool: a server that went away is simply tried again next time. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  // Short timeouts: a server that does not answer fails the attempt; the list waits for the next one.
  const transport = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from },
  );
  return {
    async send(m) {
      const info = await transport.sendMail({
        to: m.to,
        subject: `Rooming list ${m.night} v${m.version}${m.resend ? ' (resent)' : ''}: ${m.airlineName} crew at ${m.hotelName}`,
        text: roomingText(m),
        attachments: [
          {
            filename: `rooming-list-${m.night}-v${m.version}.csv`,
            content: roomingCsv(m.rows),
            contentType: 'text/csv; charset=utf-8',
          },
        ],
      });
      return { messageId: String(info.messageId ?? '') };
    },
    close: () => transport.close(),
  };
}
