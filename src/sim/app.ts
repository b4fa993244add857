import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { ChatProvider } from './chat.js';
import { LinkError } from './mcp-link.js';
import { Orchestrator, type TurnResult } from './orchestrator.js';

/**
 * The simulator's web app: the Echo-Show-style page, its JSON API and the OAuth redirect target.
 * Conversations (and the caller's token) live in this process's memory, one per browser session:
 * a single-user demo surface, not a multi-tenant service.
 */
export interface SimAppOptions {
  /** The simulator's own origin as browsers see it, e.g. `http://127.0.0.1:8650`. */
  readonly simUrl: string;
  /** The port actually listened on, for the Host check. */
  readonly port: number;
  readonly holddesk: {
    /** Where this process reaches HoldDesk. */
    readonly url: string;
    /** Where the browser reaches it (the desk iframe); the consent URL comes from HoldDesk's metadata. */
    readonly publicUrl: string;
    readonly clientId: string;
    readonly clientSecret: string;
  };
  readonly provider: ChatProvider;
  readonly clock: () => Date;
  readonly version: string;
  readonly logger: Logger;
  /** Only with SIM_SHOW_DEMO_CREDS=1 (recording a demo): the caller login shown in the linking dialog. */
  readonly demoLogin?: { readonly username: string; readonly password: string } | undefined;
}

export interface SimApp {
  readonly fetch: (request: Request) => Response | Promise<Response>;
  close(): Promise<void>;
}

const SESSION_COOKIE = 'holddesk_sim';
/** Conversations kept at once; the oldest is closed beyond this. */
export const MAX_SESSIONS = 20;
const MAX_UTTERANCE = 500;

const STATIC_DIR = new URL('../../src/sim/static/', import.meta.url);
const STATIC_FILES: Readonly<Record<string, string>> = {
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
  'callback.js': 'text/javascript; charset=utf-8',
};

const Utterance = z.strictObject({ text: z.string().trim().min(1).max(MAX_UTTERANCE) });

function loadStatic(): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of ['index.html', ...Object.keys(STATIC_FILES)]) {
    files.set(name, readFileSync(new URL(name, STATIC_DIR), 'utf8'));
  }
  return files;
}

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

function turnJson(turn: TurnResult) {
  return {
    status: turn.status,
    reply: turn.reply,
    cards: turn.cards,
    trace: turn.trace,
    ...(turn.linkUrl ? { link_url: turn.linkUrl } : {}),
  };
}

export function createSimApp(options: SimAppOptions): SimApp {
  const files = loadStatic();
  const sessions = new Map<string, Orchestrator>();
  const simOrigin = new URL(options.simUrl).origin;
  const holddeskOrigin = new URL(options.holddesk.publicUrl).origin;
  const allowedHosts = new Set([
    ...['127.0.0.1', 'localhost', '[::1]'].map((h) => `${h}:${options.port}`),
    new URL(options.simUrl).host.toLowerCase(),
  ]);
  const allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`).concat(simOrigin));
  const secure = simOrigin.startsWith('https://');

  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${holddeskOrigin}`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

  const app = new Hono();

  // DNS rebinding: a page on another name that resolves here still sends its own Host.
  app.use('*', async (c, next) => {
    const host = c.req.header('host')?.toLowerCase();
    if (!host || !allowedHosts.has(host)) return c.json({ error: 'misdirected_request' }, 421);
    await next();
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    c.header('x-frame-options', 'DENY');
    c.header('cache-control', 'no-store');
    return undefined;
  });

  /**
   * State changes are JSON from this origin only: a cross-site form cannot send JSON without a
   * preflight, which is never granted, and a present Origin must be ours.
   */
  app.use('/api/*', async (c, next) => {
    if (c.req.method !== 'POST') {
      await next();
      return undefined;
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowedOrigins.has(origin))
      return c.json({ error: 'forbidden_origin' }, 403);
    if (c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
      return c.json({ error: 'unsupported_media_type', message: 'Send JSON.' }, 415);
    }
    await next();
    return undefined;
  });

  const session = (c: Context): Orchestrator | undefined => {
    const id = getCookie(c, SESSION_COOKIE);
    return id && id.length <= 64 ? sessions.get(hashId(id)) : undefined;
  };

  const page = (c: Context, body: string) => {
    c.header('content-security-policy', csp);
    // The consent popup must keep its opener to report back; nothing else may reach this window.
    c.header('cross-origin-opener-policy', 'same-origin-allow-popups');
    c.header('permissions-policy', 'microphone=(self), camera=(), geolocation=()');
    return c.html(body);
  };

  app.get('/', (c) => page(c, files.get('index.html')!));
  app.get('/static/:name', (c) => {
    const name = c.req.param('name');
    const type = STATIC_FILES[name];
    if (!type) return c.json({ error: 'not_found' }, 404);
    return c.body(files.get(name)!, 200, { 'content-type': type });
  });
  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/api/config', (c) =>
    c.json({
      provider: options.provider.name,
      desk_url: `${holddeskOrigin}/desk/`,
      ...(options.demoLogin ? { demo_login: options.demoLogin } : {}),
    }),
  );

  app.post('/api/session', async (c) => {
    const previous = session(c);
    const id = randomBytes(32).toString('base64url');
    const orchestrator = new Orchestrator({
      link: {
        holddeskUrl: options.holddesk.url,
        clientId: options.holddesk.clientId,
        clientSecret: options.holddesk.clientSecret,
        redirectUri: `${options.simUrl}/link/callback`,
      },
      provider: options.provider,
      clock: options.clock,
      version: options.version,
    });
    let trace;
    try {
      trace = await orchestrator.start();
    } catch (error) {
      options.logger.warn({ err: error }, 'simulator session could not reach HoldDesk');
      await orchestrator.close().catch(() => undefined);
      return c.json({ error: 'holddesk_unreachable', message: 'HoldDesk could not be reached.' }, 502);
    }
    if (previous) {
      for (const [key, value] of sessions) if (value === previous) sessions.delete(key);
      await previous.close();
    }
    sessions.set(hashId(id), orchestrator);
    while (sessions.size > MAX_SESSIONS) {
      const [oldest, stale] = sessions.entries().next().value!;
      sessions.delete(oldest);
      await stale.close();
    }
    // Lax, not Strict: the consent popup comes back to /link/callback from HoldDesk's site.
    setCookie(c, SESSION_COOKIE, id, { httpOnly: true, sameSite: 'Lax', path: '/', secure });
    return c.json({
      office: orchestrator.officeName,
      provider: orchestrator.providerName,
      tools: orchestrator.toolNames,
      trace,
    });
  });

  app.post('/api/utterance', async (c) => {
    const orchestrator = session(c);
    if (!orchestrator) return c.json({ error: 'no_session', message: 'Start a session first.' }, 401);
    const body = Utterance.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) {
      return c.json(
        { error: 'invalid_request', message: `Send {"text": 1 to ${MAX_UTTERANCE} characters}.` },
        400,
      );
    }
    return c.json(turnJson(await orchestrator.handle(body.data.text)));
  });

  app.post('/api/link/resume', async (c) => {
    const orchestrator = session(c);
    if (!orchestrator) return c.json({ error: 'no_session', message: 'Start a session first.' }, 401);
    if (!orchestrator.awaitingLink)
      return c.json({ error: 'nothing_paused', message: 'No request is waiting for linking.' }, 409);
    return c.json(turnJson(await orchestrator.resume()));
  });

  app.get('/link/callback', async (c) => {
    const orchestrator = session(c);
    const query = c.req.query();
    let outcome: { ok: boolean; message: string };
    if (!orchestrator || !orchestrator.expectsLink(query.state)) {
      outcome = { ok: false, message: 'This sign-in was not started from this simulator window.' };
    } else {
      try {
        await orchestrator.completeLink({ code: query.code, state: query.state, error: query.error });
        outcome = { ok: true, message: 'Your account is linked. You can close this window.' };
      } catch (error) {
        if (!(error instanceof LinkError)) throw error;
        outcome = { ok: false, message: `Linking did not complete: ${error.message}.` };
      }
    }
    c.header(
      'content-security-policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    c.header('referrer-policy', 'no-referrer');
    return c.html(
      html`<!doctype html>
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <title>Account linking</title>
            <link rel="stylesheet" href="/static/style.css" />
            <script src="/static/callback.js" defer></script>
          </head>
          <body class="callback" data-linked="${outcome.ok ? 'yes' : 'no'}">
            <main>
              <h1>${outcome.ok ? 'Account linked' : 'Not linked'}</h1>
              <p>${outcome.message}</p>
            </main>
          </body>
        </html>`,
      outcome.ok ? 200 : 400,
    );
  });

  app.notFound((c) => c.json({ error: 'not_found' }, 404));
  app.onError((error, c) => {
    options.logger.error({ err: error, path: c.req.path }, 'simulator request failed');
    return c.json({ error: 'internal_error' }, 500);
  });

  return {
    fetch: (request) => app.fetch(request),
    close: async () => {
      await Promise.all([...sessions.values()].map((o) => o.close().catch(() => undefined)));
      sessions.clear();
    },
  };
}
