import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { describeDemo, startDemo, type RunningDemo } from '../../src/commands/demo.js';
import { parseConfig } from '../../src/config.js';
import { readSimConfig } from '../../src/sim/config.js';
import { DATA_DIR } from '../support/office.js';

describe('holddesk demo', () => {
  let dir: string;
  let demo: RunningDemo;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'holddesk-demo-'));
    demo = await startDemo(
      parseConfig({ port: '0', logLevel: 'silent', dataDir: DATA_DIR, database: join(dir, 'holddesk.db') }),
      readSimConfig({ SIM_PORT: '0', SIM_LLM: 'scripted', SIM_SHOW_DEMO_CREDS: '1' }),
      { version: 'test' },
    );
  });

  afterAll(async () => {
    await demo.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints both logins, generated for this run, on the terminal', () => {
    const text = describeDemo(demo);
    expect(text).toContain(`Simulator UI : ${demo.simUrl}/`);
    expect(text).toContain(`Human desk   : ${demo.holddeskUrl}/desk/`);
    expect(text).toContain(`Caller login : demo / ${demo.callerLogin.password}`);
    expect(text).toContain(`Desk login   : staff / ${demo.deskLogin.password}`);
    expect(demo.callerLogin.password.length).toBeGreaterThanOrEqual(16);
    expect(demo.deskLogin.password.length).toBeGreaterThanOrEqual(16);
    expect(demo.notices).toEqual([]);
  });

  it('runs HoldDesk in OAuth mode with the simulator callback as the only redirect URI', async () => {
    const metadata = (await (
      await fetch(`${demo.holddeskUrl}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(metadata.issuer).toBe(demo.holddeskUrl);
    const authorize = (redirect: string) =>
      fetch(
        `${demo.holddeskUrl}/oauth/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: 'holddesk-dev-client',
          redirect_uri: redirect,
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        }).toString()}`,
      );
    const consentPage = await authorize(`${demo.simUrl}/link/callback`);
    expect(consentPage.status).toBe(200);
    // The consent form's redirect goes to the simulator; browsers check form-action on it too.
    expect(consentPage.headers.get('content-security-policy')).toContain(
      `form-action 'self' ${new URL(demo.simUrl).origin}`,
    );
    expect((await authorize(`${demo.holddeskUrl}/oauth/debug-callback`)).status).toBe(400);
  });

  it('lets only the simulator frame the desk, and the desk login works', async () => {
    const login = await fetch(`${demo.holddeskUrl}/desk/login`);
    expect(login.headers.get('content-security-policy')).toContain(
      `frame-ancestors ${new URL(demo.simUrl).origin}`,
    );
    const signIn = await fetch(`${demo.holddeskUrl}/desk/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(demo.deskLogin),
    });
    expect(signIn.status).toBe(200);
  });

  it('shows the caller login in the simulator only when SIM_SHOW_DEMO_CREDS asks for it', async () => {
    const config = (await (await fetch(`${demo.simUrl}/api/config`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ provider: 'scripted', demo_login: demo.callerLogin });
  });

  it('is a command of the command line, which refuses a bad SIM_* setting with one line', async () => {
    let stderr = '';
    const code = await main({
      argv: ['demo'],
      env: { SIM_LLM: 'bedrock' },
      stdout: { write: () => true },
      stderr: { write: (text: string) => ((stderr += text), true) },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^holddesk: invalid configuration: SIM_LLM: /);
  });
});
