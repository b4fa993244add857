import { Hono } from 'hono';
import type { LoginThrottle } from '../auth/login-throttle.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { UseCaseContext } from '../usecases/context.js';
import { StaffAccounts } from '../usecases/staff-accounts.js';
import { StaffDesk } from '../usecases/staff-desk.js';
import { assetRoutes, SCRIPT_URL, STYLE_URL } from './assets.js';
import type { ChangeFeed } from './changes/feed.js';
import { deskHeaders } from './headers.js';
import { LiveStreams } from './live.js';
import { adminRoutes } from './routes/admin.js';
import { apiRoutes } from './routes/api.js';
import { authRoutes } from './routes/auth.js';
import { gatewayPageRoutes, type DeskGateway } from './routes/gateway-pages.js';
import { pageRoutes } from './routes/pages.js';
import type { DeskServices } from './services.js';
import { DeskSessions, type DeskEnv } from './session.js';

export type DeskConfig = Pick<
  Config,
  | 'deskUsername'
  | 'deskPassword'
  | 'deskDisplayName'
  | 'deskFrameAncestors'
  | 'publicUrl'
  | 'oauthIssuer'
  | 'allowedOrigins'
>;

export interface DeskOptions {
  readonly ctx: UseCaseContext;
  readonly config: DeskConfig;
  readonly changes: ChangeFeed;
  readonly throttle: LoginThrottle;
  readonly logger: Logger;
  /** Real time, for session expiry. */
  readonly securityClock: () => Date;
  /** How often live streams re-check their session and send a keep-alive (tests shorten it). */
  readonly heartbeatMs?: number;
  /** The call gateway's token and call services, for the Access tokens and Calls pages. */
  readonly gateway?: DeskGateway | undefined;
}

export interface Desk {
  /** Mount at `/desk`. */
  readonly app: Hono<DeskEnv>;
  /** Lines for the operator, printed once (a generated desk password). */
  readonly notices: readonly string[];
  /** Ends the live streams, so shutdown need not wait for open desks. */
  drain(): void;
}

/**
 * The staff desk: sign-in, the approval queue (live), decisions, calendar, audit trail and staff
 * accounts, as a Hono app to mount at `/desk`. At start it makes sure the configured desk account
 * exists, so a fresh installation can be signed in to at once.
 */
export async function createDesk(options: DeskOptions): Promise<Desk> {
  const { ctx, config, logger } = options;
  const accounts = new StaffAccounts(ctx);
  const notices: string[] = [];
  const ensured = await accounts.ensureDeskAccount({
    username: config.deskUsername,
    password: config.deskPassword,
    displayName: config.deskDisplayName,
  });
  if (ensured.generatedPassword !== undefined) {
    notices.push(
      `Staff desk account "${config.deskUsername}" created with password ${ensured.generatedPassword} ` +
        '(shown only now; set HOLDDESK_DESK_PASSWORD or use "holddesk staff passwd" to choose one).',
    );
  }
  if (ensured.passwordUpdated)
    logger.info({ username: config.deskUsername }, 'desk password set from configuration');
  const disabled = (await accounts.find(config.deskUsername))?.disabled_at;
  if (disabled) logger.warn({ username: config.deskUsername }, 'the configured desk account is disabled');

  // The desk's public address: HOLDDESK_PUBLIC_URL, else the OAuth issuer (the same server).
  const publicUrl = config.publicUrl ?? config.oauthIssuer;
  const publicOrigins = new Set<string>([
    ...(publicUrl ? [new URL(publicUrl).origin] : []),
    ...config.allowedOrigins,
  ]);
  const live = new LiveStreams(options.changes, options.heartbeatMs);
  const services: DeskServices = {
    ctx,
    desk: new StaffDesk(ctx),
    accounts,
    sessions: new DeskSessions(ctx, publicUrl?.startsWith('https://') ?? false, options.securityClock),
    throttle: options.throttle,
    live,
    chrome: {
      officeName: ctx.data.office.name,
      scriptUrl: SCRIPT_URL,
      styleUrl: STYLE_URL,
      gatewayPages: options.gateway !== undefined,
    },
    publicOrigins,
    logger,
  };

  const app = new Hono<DeskEnv>();
  app.use('*', deskHeaders(config.deskFrameAncestors));
  app.route('/assets', assetRoutes());
  app.route('/', authRoutes(services));
  app.route('/api', apiRoutes(services));
  app.route('/admin/staff', adminRoutes(services));
  app.route('/', pageRoutes(services));
  if (options.gateway) app.route('/', gatewayPageRoutes(services, options.gateway));
  // The queue lives at /desk; /desk/ (a common way to type it) leads there.
  app.get('/*', (c) => {
    const url = new URL(c.req.url);
    if (url.pathname === '/desk/') return c.redirect(`/desk${url.search}`, 308);
    return c.json({ error: 'not_found' }, 404);
  });
  return { app, notices, drain: () => live.drain() };
}
