import { upgradeWebSocket } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { Authenticator } from '../auth/authenticator.js';
import { CALL_MODES } from '../core/calls/call-state.js';
import { success, type Result } from '../core/result.js';
import { unauthorizedResponse } from '../http/json-rpc-errors.js';
import { checkOrigin, type OriginPolicy } from '../http/origin-guard.js';
import type { Logger } from '../logger.js';
import type { CallGateway } from './call-gateway.js';
import type { GatewayEvent } from './events.js';
import type { PersonalTokens } from './personal-tokens.js';
import type { StaffPrincipal } from './staff-principal.js';

/**
 * The gateway's REST API under `/api` (a mirror of the staff MCP tools for scripts and the desk's
 * pages) and its live event stream, the WebSocket `/api/events`. Answers are JSON: the value on
 * success, `{error: code, message, ...}` with a fitting status on refusal.
 *
 * Access: a staff personal access token or OIDC JWT as a bearer token; without an Authorization
 * header, the desk session when the desk provides one. Session-authenticated requests that change
 * something, and session WebSocket upgrades, must carry an allowed Origin: a browser always sends
 * it, and a page on another site cannot forge it (cross-site request forgery and WebSocket hijacking).
 */
export interface GatewayApiOptions {
  readonly gateway: CallGateway;
  readonly tokens: PersonalTokens;
  readonly staff: Authenticator<StaffPrincipal>;
  /** The desk session, for the desk's own pages; never consulted when a bearer token is sent. */
  readonly deskSessions?: Authenticator<StaffPrincipal> | undefined;
  readonly origins: OriginPolicy;
  readonly logger: Logger;
}

type Env = { Variables: { staff: StaffPrincipal } };

const STATUS_BY_CODE: Readonly<Record<string, 403 | 404 | 409 | 429 | 503>> = {
  not_found: 404,
  no_recording: 404,
  no_summary: 404,
  unknown_device: 404,
  unknown_staff: 404,
  not_your_call: 403,
  not_permitted: 403,
  session_required: 403,
  concurrency_limit: 429,
  daily_limit: 429,
  no_trunk_configured: 503,
  trunk_unavailable: 503,
  call_not_active: 409,
  call_not_connected: 409,
  call_not_transferable: 409,
  call_not_completed: 409,
  not_an_exploration_call: 409,
  exploration_incomplete: 409,
  nothing_to_learn: 409,
  flow_exists: 409,
  flow_changed: 409,
  device_exists: 409,
  device_offline: 409,
  not_live_here: 409,
  already_revoked: 409,
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function answer<T>(c: Context<Env>, result: Result<T>, created = false): Response {
  if (result.ok) return c.json(result.value as object, created ? 201 : 200);
  const { code, ...rest } = result.error;
  return c.json({ ...rest, error: code }, STATUS_BY_CODE[code] ?? 400);
}

/** The request body parsed by `schema`, or the 4xx response that says why not. */
async function body<S extends z.ZodType>(c: Context<Env>, schema: S): Promise<z.infer<S> | Response> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return c.json({ error: 'unsupported_media_type', message: 'Send application/json.' }, 415);
  }
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return c.json({ error: 'invalid_json', message: 'The body is not valid JSON.' }, 400);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return c.json({ error: 'invalid_request', message: `${where}${issue.message}` }, 400);
  }
  return parsed.data;
}

const PlaceCallBody = z.strictObject({
  number: z.string().min(1).max(40),
  mode: z.enum(CALL_MODES).optional(),
  intent: z.string().max(500).optional(),
  call_flow_id: z.string().min(1).max(40).optional(),
  device: z.string().min(1).max(80).optional(),
});
const TransferBody = z.strictObject({ device: z.string().min(1).max(80) });
const DtmfBody = z.strictObject({ digits: z.string().min(1).max(40) });
const LearnBody = z.strictObject({ company_name: z.string().max(120).optional() });
const FlowBody = z.strictObject({
  name: z.string().min(1).max(120),
  phone_number: z.string().min(1).max(40),
  steps: z.array(z.unknown()).max(100),
  notes: z.string().max(2000).optional(),
});
const DeviceBody = z.strictObject({
  name: z.string().min(1).max(60),
  kind: z.enum(['sip', 'phone']),
  address: z.string().min(1).max(200),
});
const TokenBody = z.strictObject({
  name: z.string().min(1).max(80),
  expires_in_days: z.number().int().optional(),
});
const Limit = z.coerce.number().int().min(1).max(100).optional();

/** Whether an event belongs on a stream filtered to one call. */
function concerns(event: GatewayEvent, callId: string | undefined): boolean {
  if (callId === undefined) return true;
  if (event.type === 'call.status') return event.call.call_id === callId;
  return (event.type === 'call.event' || event.type === 'call.transcript') && event.call_id === callId;
}

export function gatewayApi(options: GatewayApiOptions): Hono<Env> {
  const { gateway, tokens, logger } = options;
  const api = new Hono<Env>();

  const guard = createMiddleware<Env>(async (c, next) => {
    const misdirected = checkOrigin(c.req.raw, options.origins);
    if (misdirected) return misdirected;
    const usesBearer = c.req.header('authorization') !== undefined;
    const gate = usesBearer ? options.staff : options.deskSessions;
    const auth = gate ? await gate.authenticate(c.req.raw) : { ok: false as const };
    if (!auth.ok) return unauthorizedResponse();
    const upgrade = c.req.header('upgrade')?.toLowerCase() === 'websocket';
    if (auth.principal.via === 'desk_session' && (!SAFE_METHODS.has(c.req.method) || upgrade)) {
      // checkOrigin refused unknown origins already; a session request must also name one.
      if (c.req.header('origin') === undefined) {
        return c.json(
          { error: 'forbidden', message: 'Requests with the desk session need an Origin header.' },
          403,
        );
      }
    }
    c.set('staff', auth.principal);
    return next();
  });
  for (const path of [
    '/gateway/*',
    '/calls',
    '/calls/*',
    '/call-flows',
    '/call-flows/*',
    '/devices',
    '/devices/*',
    '/tokens',
    '/tokens/*',
    '/events',
  ]) {
    api.use(path, guard);
  }

  api.get('/gateway/status', async (c) => c.json(await gateway.status()));

  api.get('/calls', async (c) => {
    if (c.req.query('active') === 'true') return c.json({ calls: await gateway.activeCalls() });
    const limit = Limit.safeParse(c.req.query('limit'));
    if (!limit.success) return c.json({ error: 'invalid_request', message: 'limit is 1-100.' }, 400);
    const found = await gateway.searchHistory({
      phone_number: c.req.query('phone_number'),
      intent: c.req.query('intent'),
      limit: limit.data,
    });
    return c.json({ calls: found });
  });
  api.post('/calls', async (c) => {
    const input = await body(c, PlaceCallBody);
    if (input instanceof Response) return input;
    return answer(c, await gateway.placeCall(c.get('staff'), input), true);
  });
  api.get('/calls/:id', async (c) => answer(c, await gateway.call(c.req.param('id'))));
  api.get('/calls/:id/transcript', async (c) => answer(c, await gateway.transcript(c.req.param('id'))));
  api.get('/calls/:id/events', async (c) => answer(c, await gateway.callEvents(c.req.param('id'))));
  api.get('/calls/:id/recording', async (c) => answer(c, await gateway.recording(c.req.param('id'))));
  api.get('/calls/:id/summary', async (c) => answer(c, await gateway.summary(c.req.param('id'))));
  api.post('/calls/:id/hangup', async (c) =>
    answer(c, await gateway.hangup(c.get('staff'), c.req.param('id'))),
  );
  api.post('/calls/:id/transfer', async (c) => {
    const input = await body(c, TransferBody);
    if (input instanceof Response) return input;
    return answer(c, await gateway.transfer(c.get('staff'), c.req.param('id'), input.device));
  });
  api.post('/calls/:id/dtmf', async (c) => {
    const input = await body(c, DtmfBody);
    if (input instanceof Response) return input;
    return answer(c, await gateway.sendDtmf(c.get('staff'), c.req.param('id'), input.digits));
  });
  api.post('/calls/:id/learn-flow', async (c) => {
    const input = await body(c, LearnBody);
    if (input instanceof Response) return input;
    return answer(c, await gateway.learnFlow(c.get('staff'), c.req.param('id'), input.company_name));
  });

  api.get('/call-flows', async (c) => {
    const number = c.req.query('phone_number');
    if (number !== undefined) return answer(c, await gateway.flowByNumber(number));
    return c.json({ call_flows: await gateway.flows() });
  });
  api.get('/call-flows/:id', async (c) => answer(c, await gateway.flow(c.req.param('id'))));
  api.post('/call-flows', async (c) => {
    const input = await body(c, FlowBody);
    if (input instanceof Response) return input;
    return answer(c, await gateway.createFlow(c.get('staff'), input), true);
  });

  api.get('/devices', async (c) =>
    c.json({
      devices: await gateway.devices(c.req.query('mine') === 'true' ? c.get('staff').username : undefined),
    }),
  );
  api.post('/devices', async (c) => {
    const input = await body(c, DeviceBody);
    if (input instanceof Response) return input;
    return answer(c, await gateway.addDevice(c.get('staff'), input), true);
  });
  api.delete('/devices/:id', async (c) =>
    answer(c, await gateway.removeDevice(c.get('staff'), c.req.param('id'))),
  );

  // Tokens: your own (admins may ask for everyone's). Minting needs the desk session, so a leaked
  // token cannot mint itself a successor that outlives its revocation.
  api.get('/tokens', async (c) => {
    const staff = c.get('staff');
    const everyone = c.req.query('all') === 'true' && staff.role === 'admin';
    return c.json({ tokens: await tokens.list(everyone ? undefined : staff.username) });
  });
  api.post('/tokens', async (c) => {
    const staff = c.get('staff');
    if (staff.via !== 'desk_session') {
      return c.json({ error: 'session_required', message: 'Mint tokens while signed in to the desk.' }, 403);
    }
    const input = await body(c, TokenBody);
    if (input instanceof Response) return input;
    const minted = await tokens.mint({
      staff: staff.username,
      name: input.name,
      expiresInDays: input.expires_in_days,
      actor: { kind: 'staff', username: staff.username, name: staff.displayName, role: staff.role },
    });
    return answer(c, minted.ok ? success({ token: minted.value.token, ...minted.value.view }) : minted, true);
  });
  api.delete('/tokens/:id', async (c) => {
    const staff = c.get('staff');
    return answer(
      c,
      await tokens.revoke(c.req.param('id'), {
        kind: 'staff',
        username: staff.username,
        name: staff.displayName,
        role: staff.role,
      }),
    );
  });

  api.get(
    '/events',
    upgradeWebSocket(
      (c) => {
        const filter = c.req.query('call_id');
        let stop: (() => void) | undefined;
        return {
          onOpen: (_event, ws) => {
            // Events that arrive while the snapshot is read are held back and sent after it, in order.
            const held: GatewayEvent[] = [];
            let live = false;
            stop = gateway.events.subscribe((event) => {
              if (!concerns(event, filter)) return;
              if (live) ws.send(JSON.stringify(event));
              else held.push(event);
            });
            gateway
              .activeCalls()
              .then((active) => {
                ws.send(
                  JSON.stringify({
                    type: 'hello',
                    active_calls: active.filter((call) => filter === undefined || call.call_id === filter),
                  }),
                );
                for (const event of held) ws.send(JSON.stringify(event));
                live = true;
              })
              .catch((error: unknown) => {
                logger.warn({ err: error }, 'event stream snapshot failed');
                ws.close(1011, 'snapshot failed');
              });
          },
          onClose: () => stop?.(),
        };
      },
      { onError: (error) => logger.warn({ err: error }, 'event stream failed') },
    ),
  );
  api.get('/events', (c) =>
    c.json({ error: 'upgrade_required', message: 'Connect with a WebSocket.' }, 426, {
      upgrade: 'websocket',
    }),
  );
  return api;
}
