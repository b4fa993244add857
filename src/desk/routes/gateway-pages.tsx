import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { CallGateway } from '../../gateway/call-gateway.js';
import { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS, type PersonalTokens } from '../../gateway/personal-tokens.js';
import { GATEWAY_SCOPE, type StaffPrincipal } from '../../gateway/staff-principal.js';
import { readFormBody } from '../../http/forms.js';
import { CSRF_FIELD, originAllowed, tokensMatch } from '../csrf.js';
import { fullPage } from '../render.js';
import type { DeskServices } from '../services.js';
import type { DeskEnv, DeskSession } from '../session.js';
import { CallsBody, CallsPage, type LiveCall } from '../views/calls.js';
import { ErrorPage } from '../views/error.js';
import type { Flash } from '../views/layout.js';
import { TokensPage } from '../views/tokens.js';

/** The call gateway's services the desk pages act through (the same ones `/staff/mcp` uses). */
export interface DeskGateway {
  readonly tokens: PersonalTokens;
  readonly calls: CallGateway;
}

/** Transcript lines shown per live call; the whole transcript stays available through the API. */
const TRANSCRIPT_LINES = 12;

const MintForm = z.object({
  name: z.string().max(200),
  expires_in_days: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : v),
    z.coerce.number().int().optional(),
  ),
});
const TransferForm = z.object({ device: z.string().min(1).max(200) });

type PageStatus = 200 | 400 | 403 | 404 | 409;
const STATUS_BY_CODE: Readonly<Record<string, PageStatus>> = {
  not_found: 404,
  unknown_device: 404,
  not_your_call: 403,
  not_permitted: 403,
};

/** The desk session as a gateway principal: the gateway's own rules decide what it may do. */
function principalOf(session: DeskSession): StaffPrincipal {
  return {
    kind: 'staff',
    username: session.username,
    displayName: session.displayName,
    role: session.role,
    via: 'desk_session',
    credentialId: null,
    clientId: `desk:${session.username}`,
    scopes: [GATEWAY_SCOPE],
  };
}

/**
 * Pages for the call gateway: the signed-in staff member's personal access tokens, and the live
 * calls with hang-up and transfer. The desk cookie is scoped to `/desk`, so these are server-rendered
 * pages with plain forms (each carrying the session's CSRF token) that call the gateway's services
 * directly, rather than browser calls to `/api`.
 */
export function gatewayPageRoutes(services: DeskServices, gateway: DeskGateway): Hono<DeskEnv> {
  const routes = new Hono<DeskEnv>();
  const { sessions, chrome } = services;
  const timeZone = services.ctx.data.office.timezone;
  const page = sessions.requirePage();

  const formCsrf: MiddlewareHandler<DeskEnv> = async (c, next) => {
    const form = await readFormBody(c);
    const ok =
      originAllowed(c.req.raw, services.publicOrigins) &&
      tokensMatch(form[CSRF_FIELD], c.get('session').csrfToken);
    if (ok) return next();
    return c.html(
      fullPage(
        <ErrorPage
          chrome={chrome}
          session={c.get('session')}
          title="This form expired"
          message="The page was open too long or came from somewhere else. Go back, reload and try again."
        />,
      ),
      403,
    );
  };

  const tokensPage = async (
    c: Context<DeskEnv>,
    status: PageStatus,
    extra: { flash?: Flash; minted?: { name: string; token: string } } = {},
  ) => {
    const session = c.get('session');
    return c.html(
      fullPage(
        <TokensPage
          chrome={chrome}
          session={session}
          tokens={await gateway.tokens.list(session.username)}
          timeZone={timeZone}
          defaultDays={DEFAULT_TOKEN_DAYS}
          maxDays={MAX_TOKEN_DAYS}
          {...extra}
        />,
      ),
      status,
    );
  };

  routes.get('/tokens', page, (c) => tokensPage(c, 200));

  routes.post('/tokens', page, formCsrf, async (c) => {
    const session = c.get('session');
    const form = MintForm.safeParse(await readFormBody(c));
    if (!form.success) {
      return tokensPage(c, 400, {
        flash: { kind: 'error', text: `Name the token and give its expiry in whole days.` },
      });
    }
    const minted = await gateway.tokens.mint({
      staff: session.username,
      name: form.data.name,
      expiresInDays: form.data.expires_in_days,
      actor: { kind: 'staff', username: session.username, name: session.displayName, role: session.role },
    });
    if (!minted.ok) {
      return tokensPage(c, STATUS_BY_CODE[minted.error.code] ?? 400, {
        flash: { kind: 'error', text: minted.error.message },
      });
    }
    // Answered directly rather than by redirect: the token exists only in this response.
    return tokensPage(c, 200, { minted: { name: minted.value.view.name, token: minted.value.token } });
  });

  routes.post('/tokens/:id/revoke', page, formCsrf, async (c) => {
    const session = c.get('session');
    const revoked = await gateway.tokens.revoke(c.req.param('id'), {
      kind: 'staff',
      username: session.username,
      name: session.displayName,
      role: session.role,
    });
    if (!revoked.ok) {
      return tokensPage(c, STATUS_BY_CODE[revoked.error.code] ?? 409, {
        flash: { kind: 'error', text: revoked.error.message },
      });
    }
    return tokensPage(c, 200, { flash: { kind: 'ok', text: `Token “${revoked.value.name}” revoked.` } });
  });

  const liveCalls = async (): Promise<LiveCall[]> => {
    const calls = await gateway.calls.activeCalls();
    return Promise.all(
      calls.map(async (call) => {
        const transcript = await gateway.calls.transcript(call.call_id);
        return { call, transcript: transcript.ok ? transcript.value.lines.slice(-TRANSCRIPT_LINES) : [] };
      }),
    );
  };

  const callsPage = async (c: Context<DeskEnv>, status: PageStatus, flash?: Flash) => {
    const session = c.get('session');
    return c.html(
      fullPage(
        <CallsPage
          chrome={chrome}
          session={session}
          calls={await liveCalls()}
          devices={await gateway.calls.devices(session.username)}
          flash={flash}
        />,
      ),
      status,
    );
  };

  routes.get('/calls', page, (c) => callsPage(c, 200));

  routes.get('/partials/calls', sessions.requireApi(), async (c) => {
    const session = c.get('session');
    return c.html(
      <CallsBody
        calls={await liveCalls()}
        devices={await gateway.calls.devices(session.username)}
        session={session}
      />,
    );
  });

  routes.post('/calls/:id/hangup', page, formCsrf, async (c) => {
    const ended = await gateway.calls.hangup(principalOf(c.get('session')), c.req.param('id'));
    if (!ended.ok) {
      return callsPage(c, STATUS_BY_CODE[ended.error.code] ?? 409, {
        kind: 'error',
        text: ended.error.message,
      });
    }
    return callsPage(c, 200, { kind: 'ok', text: `The call to ${ended.value.number} was hung up.` });
  });

  routes.post('/calls/:id/transfer', page, formCsrf, async (c) => {
    const form = TransferForm.safeParse(await readFormBody(c));
    if (!form.success) return callsPage(c, 400, { kind: 'error', text: 'Choose a device to transfer to.' });
    const moved = await gateway.calls.transfer(
      principalOf(c.get('session')),
      c.req.param('id'),
      form.data.device,
    );
    if (!moved.ok) {
      return callsPage(c, STATUS_BY_CODE[moved.error.code] ?? 409, {
        kind: 'error',
        text: moved.error.message,
      });
    }
    return callsPage(c, 200, { kind: 'ok', text: `The call to ${moved.value.number} is being transferred.` });
  });

  return routes;
}
