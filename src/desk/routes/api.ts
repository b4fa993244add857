import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { CSRF_HEADER, originAllowed, tokensMatch } from '../csrf.js';
import type { DeskServices } from '../services.js';
import type { DeskEnv } from '../session.js';

export const MAX_NOTE_LENGTH = 1000;

export const DecisionBody = z.strictObject({
  decision: z.enum(['approve', 'reject']),
  note: z.string().max(MAX_NOTE_LENGTH).optional(),
});

/** HTTP status for each refusal of a decision. */
export const DECISION_STATUS = { not_found: 404, already_decided: 409, invalid_transition: 409 } as const;

/**
 * The desk's JSON API for scripts and for the desk's own page. Every route needs a session (401
 * otherwise); every state change also needs the session's CSRF token in `X-CSRF-Token`.
 */
export function apiRoutes(services: DeskServices): Hono<DeskEnv> {
  const routes = new Hono<DeskEnv>();
  const { sessions, desk } = services;

  const csrf: MiddlewareHandler<DeskEnv> = async (c, next) => {
    const ok =
      originAllowed(c.req.raw, services.publicOrigins) &&
      tokensMatch(c.req.header(CSRF_HEADER), c.get('session').csrfToken);
    if (!ok) return c.json({ error: 'csrf_failed', message: 'Send the session’s X-CSRF-Token header.' }, 403);
    return next();
  };

  routes.use('*', sessions.requireApi());

  routes.get('/session', (c) => {
    const session = c.get('session');
    return c.json({
      staff: { username: session.username, display_name: session.displayName, role: session.role },
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt,
    });
  });

  routes.get('/approvals', async (c) => c.json({ approvals: await desk.queue() }));

  routes.post('/approvals/:id/decision', csrf, async (c) => {
    const id = c.req.param('id');
    if (c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
      return c.json({ error: 'unsupported_media_type', message: 'Send JSON.' }, 415);
    }
    const body = DecisionBody.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) {
      return c.json(
        {
          error: 'invalid_request',
          message: `Send {"decision": "approve" | "reject", "note"?: string of at most ${MAX_NOTE_LENGTH} characters}.`,
        },
        400,
      );
    }
    const session = c.get('session');
    const decided = await desk.decide(
      id,
      body.data.decision,
      { account: session.username, name: session.displayName },
      body.data.note,
    );
    if (!decided.ok) {
      const { code, ...rest } = decided.error;
      return c.json({ ...rest, error: code }, DECISION_STATUS[code]);
    }
    return c.json({ approval: decided.value });
  });

  routes.get('/events', (c) => {
    const { idHash } = c.get('session');
    return services.live.open(async () => (await sessions.findByHash(idHash)) !== undefined);
  });

  return routes;
}
