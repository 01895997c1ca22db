import {
  CONSOLE_INVITATION_HOURS,
  ConsoleSettings,
  ConsoleSettingsBody,
  ConsoleUserBody,
  ConsoleUserList,
  ConsoleUserParams,
  CreatedConsoleUser,
  requiredScope,
} from '@crew/contracts';
import { consoleUserRepo, type Db } from '@crew/db';
import { ApiError, errorResponses, route, type Config, type Logger, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';
import { CONSOLE_BASE } from './context';
import { randomToken, tokenHash } from './secrets';

const TAGS = ['Console users'];
const USERS = '/crew/console-users';
const USER = `${USERS}/:user_id`;
const SETTINGS = '/crew/console-settings';

const isUniqueViolation = (err: unknown) => (err as { code?: unknown })?.code === '23505';

/**
 * The airline's integration manages the people of its travel desk who use the console (it never signs in
 * there itself): invite, list, revoke; and the airline's console rule (an authenticator app required or not).
 */
export function consoleUserRoutes(
  db: Db,
  config: Config,
  logger: Logger,
  now: () => Date = () => new Date(),
): RouteSpec[] {
  return [
    route({
      method: 'post',
      path: USERS,
      operationId: 'createConsoleUser',
      summary: 'Invite a person of the travel desk to the console: answers their single-use invitation link',
      description:
        `Creates the person (\`AGENT\` acts, \`VIEWER\` only reads) and an invitation link, \`invite_url\`, shown only in this answer: hand it to the person. ` +
        `Opening it lets them set their password, once, within ${CONSOLE_INVITATION_HOURS} hours. The e-mail is their sign-in name (compared in lower case). ` +
        '409 `CONFLICT` when the airline already has an active person with this e-mail (revoke them first to invite again); 422 on a bad body.',
      tags: TAGS,
      auth: requiredScope('post', USERS),
      body: ConsoleUserBody,
      responses: {
        201: { description: 'The person and their invitation link', schema: CreatedConsoleUser },
        ...errorResponses([401, 403, 409, 422]),
      },
      handler: async ({ res, body }) => {
        const airlineId = principal(res).airline_id;
        const token = randomToken();
        const at = now();
        const expiresAt = new Date(at.getTime() + CONSOLE_INVITATION_HOURS * 3600_000);
        const email = body.email.toLowerCase();
        let created;
        try {
          created = await db
            .transaction()
            .execute((trx) =>
              consoleUserRepo.insertUserWithInvitation(
                trx,
                { airline_id: airlineId, email, role: body.role },
                { token_hash: tokenHash(token), expires_at: expiresAt },
              ),
            );
        } catch (err) {
          if (isUniqueViolation(err))
            throw ApiError.conflict('The airline already has an active console user with this e-mail');
          throw err;
        }
        logger.info(
          { event: 'console_user_invited', airline_id: airlineId, user_id: created.user_id, role: created.role },
          'console user invited',
        );
        return {
          status: 201,
          body: {
            user_id: created.user_id,
            email: created.email,
            role: created.role,
            invite_url: `${config.publicApiUrl}${CONSOLE_BASE}/invite/${token}`,
            invite_expires_at: expiresAt.toISOString(),
          },
        };
      },
    }),
    route({
      method: 'get',
      path: USERS,
      operationId: 'listConsoleUsers',
      summary: 'The people of the travel desk who may use the console (revoked ones left out)',
      description:
        'Oldest first. `status` is `INVITED` until the person has set their password through the invitation link, then `ACTIVE`; ' +
        '`totp_enabled` tells whether they have enrolled an authenticator app.',
      tags: TAGS,
      auth: requiredScope('get', USERS),
      responses: {
        200: { description: 'The console users', schema: ConsoleUserList },
        ...errorResponses([401, 403]),
      },
      handler: async ({ res }) => {
        const rows = await consoleUserRepo.listUsers(db, principal(res).airline_id);
        return {
          status: 200,
          body: {
            console_users: rows.map((r) => ({
              user_id: r.user_id,
              email: r.email,
              role: r.role,
              status: r.password_hash ? ('ACTIVE' as const) : ('INVITED' as const),
              totp_enabled: r.totp_enabled_at !== null,
              created_at: r.created_at.toISOString(),
            })),
          },
        };
      },
    }),
    route({
      method: 'delete',
      path: USER,
      operationId: 'revokeConsoleUser',
      summary: 'Revoke a person’s console access: their open sessions end at once',
      description:
        'The person can no longer sign in, an unused invitation link of theirs stops working, and every open session of theirs is refused from the next request on. ' +
        '404 for an unknown id, one already revoked, or a person of another airline. The e-mail may then be invited again.',
      tags: TAGS,
      auth: requiredScope('delete', USER),
      params: ConsoleUserParams,
      responses: { 204: { description: 'Revoked' }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => {
        const airlineId = principal(res).airline_id;
        const revoked = await consoleUserRepo.revokeUser(db, airlineId, params.user_id, now());
        if (!revoked) throw ApiError.notFound('Console user');
        logger.info(
          {
            event: 'console_user_revoked',
            airline_id: airlineId,
            user_id: revoked.user_id,
            sessions_ended: Number(revoked.sessions_ended ?? 0),
          },
          'console user revoked',
        );
        return { status: 204 };
      },
    }),
    route({
      method: 'get',
      path: SETTINGS,
      operationId: 'getConsoleSettings',
      summary: 'The airline’s console rules: whether an authenticator app is required',
      description: '`require_totp` false and `updated_at` null until the airline sets it.',
      tags: TAGS,
      auth: requiredScope('get', SETTINGS),
      responses: { 200: { description: 'Console settings', schema: ConsoleSettings }, ...errorResponses([401, 403]) },
      handler: async ({ res }) => {
        const row = await consoleUserRepo.findSettings(db, principal(res).airline_id);
        return {
          status: 200,
          body: { require_totp: row?.require_totp ?? false, updated_at: row?.updated_at.toISOString() ?? null },
        };
      },
    }),
    route({
      method: 'put',
      path: SETTINGS,
      operationId: 'putConsoleSettings',
      summary: 'Require (or not) an authenticator app of every console user',
      description:
        'With `require_totp` true, a person who has not enrolled an authenticator app is sent to enrol one right after signing in, and can use no other page ' +
        'until they have; a person who has enrolled gives its code at every sign-in (whatever this setting). Takes effect on the next request of every open session.',
      tags: TAGS,
      auth: requiredScope('put', SETTINGS),
      body: ConsoleSettingsBody,
      responses: {
        200: { description: 'Console settings', schema: ConsoleSettings },
        ...errorResponses([401, 403, 422]),
      },
      handler: async ({ res, body }) => {
        const row = await consoleUserRepo.putSettings(db, principal(res).airline_id, body.require_totp, now());
        return { status: 200, body: { require_totp: row.require_totp, updated_at: row.updated_at.toISOString() } };
      },
    }),
  ];
}
