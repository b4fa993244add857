import { randomBytes } from 'node:crypto';
import { clockFor, type Config } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { createSimApp } from '../sim/app.js';
import type { ChatProvider } from '../sim/chat.js';
import type { SimConfig } from '../sim/config.js';
import { chooseProvider } from '../sim/providers/choose.js';
import { startSimulator } from '../sim/server.js';
import { generatePassword } from '../usecases/staff-accounts.js';
import { startServer, type RunningServer } from './serve.js';

/**
 * `holddesk demo`: HoldDesk in OAuth mode with development secrets generated for this run, the
 * simulator's `/link/callback` as the only redirect URI and the simulator as the only origin allowed
 * to frame the desk, then the simulator itself. The two logins are for the terminal only; the
 * simulator's API never hands them out (unless SIM_SHOW_DEMO_CREDS asks it to, for a recording).
 */
export interface Login {
  readonly username: string;
  readonly password: string;
}

export interface RunningDemo {
  readonly simUrl: string;
  readonly holddeskUrl: string;
  readonly provider: string;
  readonly callerLogin: Login;
  readonly deskLogin: Login;
  /** HoldDesk's one-time notices, for stderr. */
  readonly notices: readonly string[];
  close(): Promise<void>;
}

const loopback = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

export async function startDemo(
  config: Config,
  sim: SimConfig,
  options: {
    readonly version: string;
    readonly logger?: Logger;
    /** Another model than SIM_LLM's (scripts that score one provider at a time). */
    readonly provider?: ChatProvider;
  },
): Promise<RunningDemo> {
  const logger = options.logger ?? createLogger(config);
  const clientSecret = config.oauthClientSecret ?? randomBytes(32).toString('base64url');
  const callerLogin = {
    username: config.demoUsername,
    password: config.demoPassword ?? randomBytes(12).toString('base64url'),
  };
  const deskLogin = { username: config.deskUsername, password: config.deskPassword ?? generatePassword() };
  const publicUrl = config.publicUrl;
  const provider = options.provider ?? chooseProvider(sim);
  let holddesk: RunningServer | undefined;
  let holddeskPublicUrl = '';

  const simulator = await startSimulator({
    port: sim.port,
    host: sim.bind,
    publicUrl: sim.publicUrl,
    build: async (simUrl, simPort) => {
      holddesk = await startServer(
        {
          ...config,
          auth: 'oauth',
          oauthIssuer: config.oauthIssuer ?? publicUrl,
          oauthClientSecret: clientSecret,
          oauthRedirectUris: [`${simUrl}/link/callback`],
          demoPassword: callerLogin.password,
          deskPassword: deskLogin.password,
          deskFrameAncestors: [new URL(simUrl).origin],
          allowedHosts: publicUrl ? [...config.allowedHosts, new URL(publicUrl).host] : config.allowedHosts,
          allowedOrigins: publicUrl
            ? [...config.allowedOrigins, new URL(publicUrl).origin]
            : config.allowedOrigins,
        },
        { version: options.version, logger },
      );
      const reachable = `http://${loopback(config.host)}:${holddesk.port}`;
      holddeskPublicUrl = config.oauthIssuer ?? publicUrl ?? `http://127.0.0.1:${holddesk.port}`;
      return createSimApp({
        simUrl,
        port: simPort,
        holddesk: {
          url: reachable,
          publicUrl: holddeskPublicUrl,
          clientId: config.oauthClientId,
          clientSecret,
        },
        provider,
        clock: clockFor(config),
        version: options.version,
        logger: logger.child({ service: 'simulator' }),
        demoLogin: sim.showDemoCreds ? callerLogin : undefined,
      });
    },
  }).catch(async (error: unknown) => {
    await holddesk?.close();
    throw error;
  });

  return {
    simUrl: simulator.url,
    holddeskUrl: holddeskPublicUrl,
    provider: provider.name,
    callerLogin,
    deskLogin,
    notices: holddesk!.notices,
    close: async () => {
      await simulator.close();
      await holddesk?.close();
    },
  };
}

/** What the terminal shows once the demo runs (the only place the logins appear). */
export function describeDemo(demo: RunningDemo): string {
  return [
    `HoldDesk demo is running (model: ${demo.provider}).`,
    `  Simulator UI : ${demo.simUrl}/`,
    `  Human desk   : ${demo.holddeskUrl}/desk/`,
    `  Caller login : ${demo.callerLogin.username} / ${demo.callerLogin.password}    (account-linking consent page)`,
    `  Desk login   : ${demo.deskLogin.username} / ${demo.deskLogin.password}    (staff sign-in on the desk)`,
    'Sign in to the desk inside its frame once, then talk to the simulator. Press Ctrl+C to stop.',
    '',
  ].join('\n');
}
