import { Type, type Static } from '@sinclair/typebox';
import { Email, StringEnum } from './common';

/*
 * The people of an airline's travel desk who use the console (`/console`), each with a login of their own:
 * the integration's credential manages them, never signs in. AGENT acts on the review queue, VIEWER only reads.
 */
export const CONSOLE_ROLES = ['AGENT', 'VIEWER'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** Hours an invitation link stays valid. */
export const CONSOLE_INVITATION_HOURS = 72;

export const ConsoleUserBody = Type.Object(
  {
    email: {
      ...Email,
      description: 'The person’s e-mail: their sign-in name; one active person per e-mail and airline',
    },
    role: StringEnum(CONSOLE_ROLES, { description: '`AGENT` acts, `VIEWER` only reads' }),
  },
  { additionalProperties: false, title: 'ConsoleUserBody' },
);
export type ConsoleUserBody = Static<typeof ConsoleUserBody>;

export const ConsoleUserParams = Type.Object({ user_id: Type.String({ format: 'uuid' }) });

export const CreatedConsoleUser = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    role: StringEnum(CONSOLE_ROLES),
    invite_url: Type.String({
      description: `The invitation link to hand to the person: single use, valid ${CONSOLE_INVITATION_HOURS} hours; shown only here`,
    }),
    invite_expires_at: Type.String({ format: 'date-time' }),
  },
  { title: 'CreatedConsoleUser' },
);
export type CreatedConsoleUser = Static<typeof CreatedConsoleUser>;

export const ConsoleUser = Type.Object(
  {
    user_id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    role: StringEnum(CONSOLE_ROLES),
    status: StringEnum(['INVITED', 'ACTIVE'], {
      description: '`INVITED` until the person has set a password through the invitation link',
    }),
    totp_enabled: Type.Boolean({ description: 'Whether the person has enrolled an authenticator app' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'ConsoleUser' },
);
export type ConsoleUser = Static<typeof ConsoleUser>;

export const ConsoleUserList = Type.Object(
  { console_users: Type.Array(ConsoleUser, { description: 'The people not revoked, oldest first' }) },
  { title: 'ConsoleUserList' },
);

export const ConsoleSettingsBody = Type.Object(
  {
    require_totp: Type.Boolean({
      description: 'true: every person must enrol an authenticator app and give its code at each sign-in',
    }),
  },
  { additionalProperties: false, title: 'ConsoleSettingsBody' },
);
export type ConsoleSettingsBody = Static<typeof ConsoleSettingsBody>;

export const ConsoleSettings = Type.Object(
  { require_totp: Type.Boolean(), updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) },
  { title: 'ConsoleSettings' },
);
export type ConsoleSettings = Static<typeof ConsoleSettings>;
