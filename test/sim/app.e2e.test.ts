import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createSimApp, MAX_SESSIONS } from '../../src/sim/app.js';
import { ScriptedProvider } from '../../src/sim/providers/scripted.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server.js';
import { DIALECTS } from '../support/databases.js';
import { CLIENT_ID, CLIENT_SECRET } from '../support/oauth.js';
import { DEMO_NOW } from '../support/office.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { consentAt, simServerSettings } from './support.js';

const logger = createLogger({ logLevel: 'silent' });

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`simulator HTTP API (${dialect.name})`, () => {
    let holddesk: TestServer;
    let sim: RunningSimulator;

    beforeAll(async () => {
      sim = await startSimulator({
        port: 0,
        host: '127.0.0.1',
        build: async (simUrl, port) => {
          holddesk = await startTestServer(
            dialect,
            simServerSettings(`${simUrl}/link/callback`, new URL(simUrl).origin),
          );
          return createSimApp({
            simUrl,
            port,
            holddesk: {
              url: holddesk.url,
              publicUrl: holddesk.url,
              clientId: CLIENT_ID,
              clientSecret: CLIENT_SECRET,
            },
            provider: new ScriptedProvider(),
            clock: () => DEMO_NOW,
            version: 'test',
            logger,
          });
        },
      });
    });

    afterAll(async () => {
      await sim.close();
      await holddesk.dispose();
    });

    /** A browser's view of the simulator: one session cookie, JSON in and out. */
    class Visitor {
      cookie = '';
      async post(path: string, body: unknown = {}, headers: Record<string, string> = {}) {
        const response = await fetch(`${sim.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: this.cookie, ...headers },
          body: JSON.stringify(body),
        });
        const set = response.headers.getSetCookie().find((c) => c.startsWith('holddesk_sim='));
        if (set) this.cookie = set.split(';')[0]!;
        return {
          status: response.status,
          headers: response.headers,
          body: (await response.json()) as Record<string, unknown>,
        };
      }
      get(path: string) {
        return fetch(`${sim.url}${path}`, { headers: { cookie: this.cookie }, redirect: 'manual' });
      }
    }

    it('serves the page under a strict CSP that only frames the desk', async () => {
      const response = await fetch(`${sim.url}/`);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain(`frame-src ${holddesk.url}`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(await response.text()).toContain('<script src="/static/app.js" type="module"></script>');
      const script = await fetch(`${sim.url}/static/app.js`);
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await fetch(`${sim.url}/static/orchestrator.ts`)).status).toBe(404);
      expect((await fetch(`${sim.url}/static/..%2Fapp.ts`)).status).toBe(404);
      expect((await fetch(`${sim.url}/healthz`)).status).toBe(200);
    });

    it('refuses an unknown Host (DNS rebinding) with 421', async () => {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${sim.url}/api/config`, { headers: { host: 'attacker.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(421);
    });

    it('takes state changes only as JSON from its own origin, and only in a session', async () => {
      const visitor = new Visitor();
      expect((await visitor.post('/api/utterance', { text: 'hi' })).status).toBe(401);
      expect((await visitor.post('/api/link/resume')).status).toBe(401);
      const form = await fetch(`${sim.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=b',
      });
      expect(form.status).toBe(415);
      expect((await visitor.post('/api/session', {}, { origin: 'http://attacker.example' })).status).toBe(
        403,
      );
      expect((await visitor.post('/api/session', {}, { origin: sim.url })).status).toBe(200);
      expect((await visitor.post('/api/utterance', { text: '' })).status).toBe(400);
      expect((await visitor.post('/api/utterance', { text: 'x'.repeat(501) })).status).toBe(400);
      expect((await visitor.post('/api/utterance', { text: 'hi', extra: 1 })).status).toBe(400);
      expect((await visitor.post('/api/link/resume')).status).toBe(409);
    });

    it('keeps at most MAX_SESSIONS conversations, closing the oldest', async () => {
      const first = new Visitor();
      await first.post('/api/session');
      expect((await first.post('/api/utterance', { text: 'hi' })).status).toBe(200);
      for (let i = 0; i < MAX_SESSIONS; i += 1) await new Visitor().post('/api/session');
      expect((await first.post('/api/utterance', { text: 'hi' })).status).toBe(401);
    });

    it('never hands out the caller login by default', async () => {
      const config = (await (await fetch(`${sim.url}/api/config`)).json()) as Record<string, unknown>;
      expect(config).toEqual({ provider: 'scripted', desk_url: `${holddesk.url}/desk/` });
    });

    it('links an account through its callback and resumes the paused hold', async () => {
      const visitor = new Visitor();
      const session = await visitor.post('/api/session');
      expect(session.body).toMatchObject({ office: 'Harborview Insurance Agency', provider: 'scripted' });
      expect(session.body.tools).toHaveLength(7);
      const paused = await visitor.post('/api/utterance', {
        text: 'Book a policy review on Thursday at 1 pm for Noor Haddad, noor@example.com',
      });
      expect(paused.body).toMatchObject({ status: 'needs_link' });
      const location = await consentAt(paused.body.link_url as string);
      expect(location.origin + location.pathname).toBe(`${sim.url}/link/callback`);

      // Someone else's browser (no session cookie) cannot complete this link.
      const stranger = await fetch(location);
      expect(stranger.status).toBe(400);
      expect(await stranger.text()).toContain('not started from this simulator window');

      const callback = await visitor.get(location.pathname + location.search);
      expect(callback.status).toBe(200);
      expect(callback.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await callback.text()).toContain('Account linked');
      const held = await visitor.post('/api/link/resume');
      expect(held.body).toMatchObject({
        status: 'reply',
        cards: [{ kind: 'appointment', status: 'pending_approval', badge: 'Pending staff approval' }],
      });
      // The code was used: replaying the callback is refused.
      const replay = await visitor.get(location.pathname + location.search);
      expect(replay.status).toBe(400);
    });

    it('shows a denied or forged callback as not linked, escaping what HoldDesk sent back', async () => {
      const visitor = new Visitor();
      await visitor.post('/api/session');
      const paused = await visitor.post('/api/utterance', {
        text: 'Book Thursday at 3 pm for Ada Byrne, ada@example.com',
      });
      const state = new URL(paused.body.link_url as string).searchParams.get('state')!;
      const forged = await visitor.get(`/link/callback?code=x&state=${'A'.repeat(32)}`);
      expect(forged.status).toBe(400);
      const denied = await visitor.get(
        `/link/callback?state=${state}&error=${encodeURIComponent('<script>alert(1)</script>')}`,
      );
      expect(denied.status).toBe(400);
      const page = await denied.text();
      expect(page).not.toContain('<script>alert');
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });
  });
}

describe('simulator without a HoldDesk', () => {
  it('answers 502 when HoldDesk cannot be reached', async () => {
    const sim = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      build: (simUrl, port) =>
        Promise.resolve(
          createSimApp({
            simUrl,
            port,
            holddesk: {
              url: 'http://127.0.0.1:9',
              publicUrl: 'http://127.0.0.1:9',
              clientId: 'x',
              clientSecret: 'y',
            },
            provider: new ScriptedProvider(),
            clock: () => DEMO_NOW,
            version: 'test',
            logger,
          }),
        ),
    });
    try {
      const response = await fetch(`${sim.url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ error: 'holddesk_unreachable' });
    } finally {
      await sim.close();
    }
  });

  it('refuses a port that is taken, naming SIM_PORT', async () => {
    const first = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      build: () => Promise.resolve({ fetch: () => new Response(), close: () => Promise.resolve() }),
    });
    try {
      await expect(
        startSimulator({
          port: first.port,
          host: '127.0.0.1',
          build: () => Promise.reject(new Error('not reached')),
        }),
      ).rejects.toThrow(/SIM_PORT/);
    } finally {
      await first.close();
    }
  });
});
