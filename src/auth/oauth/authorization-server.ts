import { randomBytes } from 'node:crypto';
import { SCOPE, type Principal } from '../../mcp/principal.js';
import type { Store } from '../../store/store.js';
import { oauthStore, type OauthClientRecord } from '../../store/oauth.js';
import { verifyPassword } from '../passwords.js';
import { secretsEqual, sha256Hex } from '../secrets.js';
import {
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  UnsupportedGrantTypeError,
  UnsupportedResponseTypeError,
} from './errors.js';
import { isValidChallenge, verifierMatches } from './pkce.js';

/**
 * HoldDesk's own OAuth 2.0 authorization server, in the two tiers Alexa+ account linking uses:
 * Tier 1 `client_credentials` gives a service token (`mcp:service`, public tools only); Tier 2
 * `authorization_code` + PKCE S256 gives a caller's token (`mcp:tools mcp:resources`) with a rotating
 * refresh token. Everything is in the database, so tokens survive restarts and work on every
 * instance; only SHA-256 digests of codes and tokens are stored.
 */
export interface OAuthSettings {
  readonly issuer: string;
  /** The MCP endpoint's URL: the only `resource` (audience) tokens are issued for. */
  readonly resource: string;
  readonly accessTokenTtlSeconds: number;
}

export const MAX_ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Codes are single-use and short-lived (RFC 6749 §4.1.2 recommends at most 10 minutes). */
export const CODE_TTL_SECONDS = 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export const SERVICE_SCOPES: readonly string[] = [SCOPE.service];
export const USER_SCOPES: readonly string[] = [SCOPE.tools, SCOPE.resources];
export const SUPPORTED_SCOPES: readonly string[] = [...SERVICE_SCOPES, ...USER_SCOPES];

export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly scope: string;
  readonly refresh_token?: string;
}

/** A validated authorization request, ready for the consent page and then for a code. */
export interface AuthorizationRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly state: string | undefined;
  readonly resource: string;
}

export type Params = Readonly<Record<string, string | undefined>>;

const newSecret = () => randomBytes(32).toString('base64url');

function parseScope(requested: string | undefined, allowed: readonly string[]): string {
  if (requested === undefined || requested.trim() === '') return allowed.join(' ');
  const scopes = [...new Set(requested.trim().split(/\s+/))];
  const unknown = scopes.filter((s) => !allowed.includes(s));
  if (unknown.length > 0)
    throw new InvalidScopeError(`scope not available for this grant: ${unknown.join(' ')}`);
  return scopes.join(' ');
}

function redirectUrisOf(client: OauthClientRecord): string[] {
  return JSON.parse(client.redirect_uris) as string[];
}

export class AuthorizationServer {
  constructor(
    private readonly store: Store,
    private readonly officeId: string,
    readonly settings: OAuthSettings,
    private readonly clock: () => Date,
  ) {}

  private get repo() {
    return oauthStore(this.store.db, this.officeId);
  }

  /** RFC 8414 metadata, with exactly the fields the Alexa+ authentication guide lists. */
  metadata() {
    const { issuer } = this.settings;
    return {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      response_types_supported: ['code'],
      grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: [...SUPPORTED_SCOPES],
    };
  }

  /** RFC 9728 protected-resource metadata for `/mcp`, pointing at this authorization server. */
  protectedResourceMetadata() {
    return {
      resource: this.settings.resource,
      authorization_servers: [this.settings.issuer],
      scopes_supported: [...SUPPORTED_SCOPES],
      bearer_methods_supported: ['header'],
    };
  }

  private checkResource(resource: string | undefined): string {
    // RFC 8707 §2: the resource indicator must name a resource this server issues tokens for.
    if (resource !== undefined && resource !== this.settings.resource) {
      throw new InvalidTargetError('resource must be the MCP endpoint URL');
    }
    return this.settings.resource;
  }

  /**
   * The client and redirect URI of an authorization request. When either is wrong the user must see
   * an error page and never be redirected (RFC 6749 §4.1.2.1): the URI could be an attacker's.
   */
  async authorizationTarget(
    params: Params,
  ): Promise<{ client: OauthClientRecord; redirectUri: string } | string> {
    const client = params.client_id ? await this.repo.findClient(params.client_id) : undefined;
    if (!client) return 'Unknown client.';
    const redirectUri = params.redirect_uri;
    if (!redirectUri || !redirectUrisOf(client).includes(redirectUri)) {
      return 'The redirect URI is not registered for this client.';
    }
    return { client, redirectUri };
  }

  /** Validates the rest of an authorization request; errors here are redirected back to the client. */
  validateAuthorizationRequest(
    params: Params,
    target: { client: OauthClientRecord; redirectUri: string },
  ): AuthorizationRequest {
    if (params.response_type !== 'code') throw new UnsupportedResponseTypeError('response_type must be code');
    // Only S256: plain PKCE or none at all would let an intercepted code be redeemed.
    if (params.code_challenge_method !== 'S256') {
      throw new InvalidRequestError('code_challenge_method must be S256');
    }
    if (!params.code_challenge || !isValidChallenge(params.code_challenge)) {
      throw new InvalidRequestError('code_challenge must be a base64url SHA-256 digest');
    }
    return {
      clientId: target.client.client_id,
      redirectUri: target.redirectUri,
      codeChallenge: params.code_challenge,
      scope: parseScope(params.scope, USER_SCOPES),
      state: params.state,
      resource: this.checkResource(params.resource),
    };
  }

  /** Checks a caller's login for the consent page (constant time, whether or not the account exists). */
  async verifyCaller(username: string, password: string): Promise<boolean> {
    const account = await this.repo.findActiveCaller(username);
    return verifyPassword(password, account?.password_hash);
  }

  /** After consent: a single-use, 60-second code bound to the client, redirect URI and PKCE challenge. */
  async issueCode(request: AuthorizationRequest, username: string): Promise<string> {
    const code = newSecret();
    const now = this.clock();
    const familyId = newSecret();
    await this.store.transaction(async (tx) => {
      const repo = oauthStore(tx, this.officeId);
      await repo.insertFamily({
        id: familyId,
        client_id: request.clientId,
        subject: `user:${username}`,
        scope: request.scope,
        resource: request.resource,
        created_at: now.toISOString(),
      });
      await repo.insertCode({
        code_hash: sha256Hex(code),
        family_id: familyId,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        expires_at: new Date(now.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
        used_at: null,
      });
    });
    return code;
  }

  /**
   * Client authentication at the token and revocation endpoints: HTTP Basic (`client_secret_basic`)
   * or form fields (`client_secret_post`), never both (RFC 6749 §2.3: a client MUST NOT use more
   * than one method in a request).
   */
  async authenticateClient(authorization: string | undefined, form: Params): Promise<OauthClientRecord> {
    let clientId: string | undefined;
    let secret: string | undefined;
    const basic = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)$/i)?.[1];
    if (authorization !== undefined && basic === undefined)
      throw new InvalidClientError('unsupported Authorization scheme');
    if (basic !== undefined) {
      if (form.client_secret !== undefined) {
        throw new InvalidRequestError('use one client authentication method, not two');
      }
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) throw new InvalidClientError('malformed Basic credentials');
      // RFC 6749 §2.3.1: both parts are form-urlencoded before Base64.
      try {
        clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
        secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      } catch {
        throw new InvalidClientError('malformed Basic credentials');
      }
      if (form.client_id !== undefined && form.client_id !== clientId) {
        throw new InvalidRequestError('client_id does not match the authenticated client');
      }
    } else {
      clientId = form.client_id;
      secret = form.client_secret;
    }
    if (!clientId || secret === undefined) throw new InvalidClientError('client authentication is required');
    const client = await this.repo.findClient(clientId);
    // Compare against a dummy when the client is unknown, so timing does not reveal which ids exist.
    const matches = secretsEqual(sha256Hex(secret), client?.secret_hash ?? sha256Hex(newSecret()));
    if (!client || !matches) throw new InvalidClientError('client authentication failed');
    return client;
  }

  async token(client: OauthClientRecord, form: Params): Promise<TokenResponse> {
    switch (form.grant_type) {
      case 'client_credentials':
        return this.clientCredentials(client, form);
      case 'authorization_code':
        return this.authorizationCode(client, form);
      case 'refresh_token':
        return this.refreshToken(client, form);
      case undefined:
        throw new InvalidRequestError('grant_type is required');
      default:
        throw new UnsupportedGrantTypeError(`unsupported grant_type ${form.grant_type}`);
    }
  }

  private async clientCredentials(client: OauthClientRecord, form: Params): Promise<TokenResponse> {
    const scope = parseScope(form.scope, SERVICE_SCOPES);
    const resource = this.checkResource(form.resource);
    const familyId = newSecret();
    const now = this.clock().toISOString();
    return this.store.transaction(async (tx) => {
      await oauthStore(tx, this.officeId).insertFamily({
        id: familyId,
        client_id: client.client_id,
        subject: `client:${client.client_id}`,
        scope,
        resource,
        created_at: now,
      });
      // RFC 6749 §4.4.3: a refresh token SHOULD NOT be included for client credentials.
      return this.mintTokens(tx, familyId, scope, false);
    });
  }

  private async authorizationCode(client: OauthClientRecord, form: Params): Promise<TokenResponse> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = form;
    if (!code || !redirectUri || !verifier) {
      throw new InvalidRequestError('code, redirect_uri and code_verifier are required');
    }
    const codeHash = sha256Hex(code);
    const record = await this.repo.findCode(codeHash);
    if (!record || record.client_id !== client.client_id)
      throw new InvalidGrantError('unknown authorization code');
    const now = this.clock();
    if (record.used_at !== null) {
      // RFC 6749 §4.1.2: a code used twice SHOULD revoke every token issued from it.
      await this.repo.revokeFamily(record.family_id, now.toISOString(), 'authorization code replayed');
      throw new InvalidGrantError('authorization code already used');
    }
    if (Date.parse(record.expires_at) <= now.getTime())
      throw new InvalidGrantError('authorization code expired');
    if (record.redirect_uri !== redirectUri)
      throw new InvalidGrantError('redirect_uri does not match the authorization');
    if (!verifierMatches(verifier, record.code_challenge))
      throw new InvalidGrantError('code_verifier does not match');
    const family = await this.repo.findFamily(record.family_id);
    if (!family || family.revoked_at !== null) throw new InvalidGrantError('authorization revoked');
    if (form.resource !== undefined && form.resource !== family.resource) {
      throw new InvalidTargetError('resource does not match the authorization');
    }
    return this.store
      .transaction(async (tx) => {
        const repo = oauthStore(tx, this.officeId);
        if (!(await repo.useCode(codeHash, now.toISOString()))) {
          throw new InvalidGrantError('authorization code already used');
        }
        return this.mintTokens(tx, family.id, family.scope, true);
      })
      .catch(async (error: unknown) => {
        // Two redemptions racing: the loser is a replay too, and revokes what the winner got.
        if (error instanceof InvalidGrantError) {
          await this.repo.revokeFamily(family.id, now.toISOString(), 'authorization code replayed');
        }
        throw error;
      });
  }

  private async refreshToken(client: OauthClientRecord, form: Params): Promise<TokenResponse> {
    if (!form.refresh_token) throw new InvalidRequestError('refresh_token is required');
    const tokenHash = sha256Hex(form.refresh_token);
    const record = await this.repo.findToken(tokenHash);
    if (!record || record.kind !== 'refresh' || record.client_id !== client.client_id) {
      throw new InvalidGrantError('unknown refresh token');
    }
    const now = this.clock();
    if (record.revoked_at !== null) throw new InvalidGrantError('authorization revoked');
    if (record.used_at !== null) {
      // A rotated refresh token presented again means it leaked: revoke the whole family.
      await this.repo.revokeFamily(record.family_id, now.toISOString(), 'rotated refresh token reused');
      throw new InvalidGrantError('refresh token already used');
    }
    if (Date.parse(record.expires_at) <= now.getTime()) throw new InvalidGrantError('refresh token expired');
    // RFC 6749 §6: the new scope must not include any scope not originally granted.
    const granted = record.scope.split(' ');
    const scope = parseScope(form.scope, granted);
    if (form.resource !== undefined && form.resource !== record.resource) {
      throw new InvalidTargetError('resource does not match the authorization');
    }
    const rotated = await this.store.transaction(async (tx) => {
      const repo = oauthStore(tx, this.officeId);
      if (!(await repo.useToken(tokenHash, now.toISOString()))) return undefined;
      return this.mintTokens(tx, record.family_id, scope, true);
    });
    if (!rotated) {
      await this.repo.revokeFamily(record.family_id, now.toISOString(), 'rotated refresh token reused');
      throw new InvalidGrantError('refresh token already used');
    }
    return rotated;
  }

  private async mintTokens(
    tx: Parameters<Parameters<Store['transaction']>[0]>[0],
    familyId: string,
    scope: string,
    withRefresh: boolean,
  ): Promise<TokenResponse> {
    const repo = oauthStore(tx, this.officeId);
    const now = this.clock();
    const ttl = Math.min(this.settings.accessTokenTtlSeconds, MAX_ACCESS_TOKEN_TTL_SECONDS);
    const accessToken = newSecret();
    await repo.insertToken({
      token_hash: sha256Hex(accessToken),
      family_id: familyId,
      kind: 'access',
      expires_at: new Date(now.getTime() + ttl * 1000).toISOString(),
      created_at: now.toISOString(),
      used_at: null,
    });
    if (!withRefresh) return { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, scope };
    const refreshToken = newSecret();
    await repo.insertToken({
      token_hash: sha256Hex(refreshToken),
      family_id: familyId,
      kind: 'refresh',
      expires_at: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
      created_at: now.toISOString(),
      used_at: null,
    });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ttl,
      scope,
      refresh_token: refreshToken,
    };
  }

  /** RFC 7009: revokes the authorization behind a token of this client; unknown tokens are not an error. */
  async revoke(client: OauthClientRecord, form: Params): Promise<void> {
    if (!form.token) throw new InvalidRequestError('token is required');
    const record = await this.repo.findToken(sha256Hex(form.token));
    if (record && record.client_id === client.client_id) {
      await this.repo.revokeFamily(record.family_id, this.clock().toISOString(), 'revoked by the client');
    }
  }

  /**
   * The principal behind an access token at `/mcp`, or undefined when it is unknown, expired, revoked
   * or was issued for another audience.
   */
  async verifyAccessToken(token: string): Promise<Principal | undefined> {
    const record = await this.repo.findToken(sha256Hex(token));
    if (!record || record.kind !== 'access' || record.revoked_at !== null) return undefined;
    if (Date.parse(record.expires_at) <= this.clock().getTime()) return undefined;
    if (record.resource !== null && record.resource !== this.settings.resource) return undefined;
    const scopes = record.scope.split(' ');
    return {
      subject: record.subject,
      scopes,
      tier: scopes.includes(SCOPE.tools) ? 'user' : 'service',
      clientId: record.client_id,
    };
  }
}
