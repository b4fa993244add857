import type { Authenticator } from '../auth/authenticator.js';
import type { Config } from '../config.js';
import type { OriginPolicy } from '../http/origin-guard.js';
import type { Logger } from '../logger.js';
import { createMcpEndpoint, type McpEndpoint } from '../mcp/http.js';
import type { OfficeData } from '../office-data.js';
import type { Store } from '../store/store.js';
import { gatewayApi } from './api.js';
import { CallGateway, type GatewayTelephony } from './call-gateway.js';
import { buildStaffMcpServer } from './mcp-server.js';
import { oidcVerifier } from './oidc.js';
import { PersonalTokens } from './personal-tokens.js';
import { staffAuthenticator } from './staff-auth.js';
import type { StaffPrincipal } from './staff-principal.js';

/**
 * The call gateway as the app mounts it: the staff MCP endpoint (`/staff/mcp`), the REST API and
 * event stream (`/api/...`), and the services behind them. The staff endpoint is the same Streamable
 * HTTP endpoint as the caller's, with the staff authenticator and the staff server.
 *
 * Calls happen in real time, so the gateway runs on the real clock even when the office clock is
 * frozen for a demo.
 */
export interface GatewaySurfaceOptions {
  readonly config: Pick<
    Config,
    'stateful' | 'jsonResponse' | 'maxConcurrentCalls' | 'dailyCallLimit' | 'oidcIssuer' | 'oidcAudience'
  >;
  readonly data: OfficeData;
  readonly store: Store;
  readonly logger: Logger;
  readonly clock: () => Date;
  readonly version: string;
  readonly origins: OriginPolicy;
  /** The carrier and the audio analysis; without them no call can be placed (`no_trunk_configured`). */
  readonly telephony?: GatewayTelephony | undefined;
  /** The desk session, accepted on `/api` for the desk's own pages (never on `/staff/mcp`). */
  readonly deskSessions?: Authenticator<StaffPrincipal> | undefined;
}

export interface GatewaySurface {
  readonly gateway: CallGateway;
  readonly tokens: PersonalTokens;
  readonly mcp: McpEndpoint;
  /** Routes to mount at `/api`. */
  readonly api: ReturnType<typeof gatewayApi>;
  close(): Promise<void>;
}

export async function createGatewaySurface(options: GatewaySurfaceOptions): Promise<GatewaySurface> {
  const { config, data, store, logger, clock } = options;
  const officeId = data.office.id;
  const gateway = new CallGateway({
    store,
    office: { id: officeId, name: data.office.name, timezone: data.office.timezone },
    clock,
    logger,
    limits: { maxConcurrent: config.maxConcurrentCalls, dailyLimit: config.dailyCallLimit },
    telephony: options.telephony,
  });
  const tokens = new PersonalTokens(store, officeId, clock);
  const oidc =
    config.oidcIssuer && config.oidcAudience
      ? oidcVerifier({ issuer: config.oidcIssuer, audience: config.oidcAudience }, clock, logger)
      : undefined;
  const staff = staffAuthenticator({ store, officeId, tokens, oidc });
  const mcp = await createMcpEndpoint({
    stateful: config.stateful,
    jsonResponse: config.jsonResponse,
    origins: options.origins,
    authenticator: staff,
    buildServer: () => buildStaffMcpServer(gateway, options.version, config.stateful),
  });
  const api = gatewayApi({
    gateway,
    tokens,
    staff,
    deskSessions: options.deskSessions,
    origins: options.origins,
    logger,
  });
  return {
    gateway,
    tokens,
    mcp,
    api,
    close: async () => {
      await mcp.close();
      await gateway.close();
    },
  };
}
