import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { secretsEqual } from '../auth/secrets.js';
import type { Tier } from './trace.js';

/**
 * The simulator's line to HoldDesk, the way the Alexa+ MCP Toolkit describes it: a Tier 1 service
 * token (`client_credentials`) for the session, the official MCP client over Streamable HTTP, and
 * on demand a Tier 2 caller token through `authorization_code` with PKCE S256 (account linking).
 */
export interface LinkOptions {
  /** Where the simulator reaches HoldDesk, e.g. `http://127.0.0.1:8641`. */
  readonly holddeskUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The simulator's `/link/callback`, registered with HoldDesk as the client's redirect URI. */
  readonly redirectUri: string;
  readonly onEvent?: (event: string, detail: string) => void;
}

export class LinkError extends Error {
  override readonly name = 'LinkError';
}

interface Metadata {
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
}

interface Tokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly tier: Tier;
  readonly scope: string;
}

export interface ToolCallOutcome {
  readonly result: Record<string, unknown>;
  readonly latencyMs: number;
  readonly tier: Tier;
}

const USER_SCOPE = 'mcp:tools mcp:resources';

/** RFC 6749 §2.3.1: id and secret are form-encoded before they are joined for HTTP Basic. */
function basicAuth(id: string, secret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

export class McpLink {
  private metadata: Metadata | undefined;
  private tokens: Tokens | undefined;
  private client: Client | undefined;
  private pending: { readonly state: string; readonly verifier: string } | undefined;
  private serverInstructions: string | undefined;

  constructor(private readonly options: LinkOptions) {}

  get tier(): Tier | undefined {
    return this.tokens?.tier;
  }

  get instructions(): string | undefined {
    return this.serverInstructions;
  }

  private event(event: string, detail: string): void {
    this.options.onEvent?.(event, detail);
  }

  private async discover(): Promise<Metadata> {
    if (this.metadata) return this.metadata;
    const url = new URL('/.well-known/oauth-authorization-server', this.options.holddeskUrl);
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok)
      throw new LinkError(`HoldDesk has no OAuth metadata at ${url.href} (${response.status})`);
    const metadata = (await response.json()) as Partial<Metadata>;
    if (typeof metadata.authorization_endpoint !== 'string' || typeof metadata.token_endpoint !== 'string') {
      throw new LinkError('the OAuth metadata names no authorization or token endpoint');
    }
    this.metadata = metadata as Metadata;
    return this.metadata;
  }

  private async tokenRequest(form: Record<string, string>, tier: Tier): Promise<Tokens> {
    const { token_endpoint } = await this.discover();
    const response = await fetch(token_endpoint, {
      method: 'POST',
      headers: {
        authorization: basicAuth(this.options.clientId, this.options.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok || typeof body.access_token !== 'string') {
      throw new LinkError(
        `token request (${form.grant_type}) refused: ${typeof body.error === 'string' ? body.error : response.status}`,
      );
    }
    return {
      accessToken: body.access_token,
      tier,
      scope: typeof body.scope === 'string' ? body.scope : '',
      ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}),
    };
  }

  private async serviceToken(): Promise<void> {
    this.tokens = await this.tokenRequest(
      { grant_type: 'client_credentials', scope: 'mcp:service' },
      'service',
    );
    this.event('client_credentials', `Tier 1 token issued, scope ${this.tokens.scope}`);
  }

  /** Tier 1 token, MCP `initialize` over Streamable HTTP, then `tools/list`. */
  async connect(version: string): Promise<Tool[]> {
    await this.serviceToken();
    const client = new Client({ name: 'holddesk-simulator', version });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', this.options.holddeskUrl), {
      // The current token is added to every request, so linking upgrades the same connection.
      fetch: (url, init) => {
        const headers = new Headers(init?.headers);
        if (this.tokens) headers.set('authorization', `Bearer ${this.tokens.accessToken}`);
        return fetch(url, { ...init, headers });
      },
    });
    await client.connect(transport);
    this.client = client;
    this.serverInstructions = client.getInstructions();
    return (await this.withRenewal(() => client.listTools())).tools;
  }

  /** The office profile resource (`office://info`), for the time zone, staff and services. */
  async officeInfo(): Promise<Record<string, unknown>> {
    const client = this.connected();
    const read = await this.withRenewal(() => client.readResource({ uri: 'office://info' }));
    const first = read.contents[0];
    return first && 'text' in first ? (JSON.parse(first.text) as Record<string, unknown>) : {};
  }

  private connected(): Client {
    if (!this.client) throw new LinkError('not connected');
    return this.client;
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<ToolCallOutcome> {
    const client = this.connected();
    const started = performance.now();
    const result = (await this.withRenewal(() =>
      client.callTool({ name, arguments: args }),
    )) as CallToolResult;
    const latencyMs = Math.round(performance.now() - started);
    // Arguments the tool's schema rejects come back as an MCP error result with text, not structured.
    const text = result.content.find((block) => block.type === 'text')?.text ?? 'The tool failed.';
    const structured = result.structuredContent ?? {
      ok: false,
      error: { code: result.isError ? 'invalid_arguments' : 'tool_error', message: text.slice(0, 500) },
      spoken_summary: 'I could not do that with those details.',
    };
    return { result: structured, latencyMs, tier: this.tokens!.tier };
  }

  /**
   * Tokens expire (at most an hour): on a 401 the caller token is refreshed, or a new service token
   * is fetched, and the request is sent once more.
   */
  private async withRenewal<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof StreamableHTTPError) || error.code !== 401) throw error;
      const refreshToken = this.tokens?.refreshToken;
      if (this.tokens?.tier === 'user' && refreshToken) {
        this.tokens = await this.tokenRequest(
          { grant_type: 'refresh_token', refresh_token: refreshToken },
          'user',
        );
        this.event('refresh_token', 'Tier 2 token refreshed (the refresh token rotated)');
      } else {
        await this.serviceToken();
      }
      return work();
    }
  }

  /** Starts account linking: the consent URL to open, with a fresh PKCE S256 pair and state. */
  async beginLinking(): Promise<string> {
    const { authorization_endpoint } = await this.discover();
    const verifier = base64url(randomBytes(32));
    const state = base64url(randomBytes(24));
    this.pending = { state, verifier };
    const url = new URL(authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.options.clientId,
      redirect_uri: this.options.redirectUri,
      // RFC 7636 §4.2: code_challenge = BASE64URL(SHA256(ASCII(code_verifier))).
      code_challenge: base64url(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
      scope: USER_SCOPE,
      state,
    }).toString();
    this.event('authorize', 'consent page opened: authorization_code with PKCE S256');
    return url.toString();
  }

  /** Whether `state` is the one this link is waiting for (compared in constant time). */
  expects(state: string | undefined): boolean {
    return this.pending !== undefined && state !== undefined && secretsEqual(state, this.pending.state);
  }

  /** The redirect back from the consent page: checks state, then exchanges the code with the verifier. */
  async completeLinking(params: { code?: string; state?: string; error?: string }): Promise<void> {
    // RFC 6749 §10.12: the state binds the redirect to the request this client made.
    if (!this.expects(params.state)) throw new LinkError('this link was not started here (state mismatch)');
    const { verifier } = this.pending!;
    this.pending = undefined;
    if (params.error !== undefined) {
      this.event('authorize_error', params.error);
      throw new LinkError(
        params.error === 'access_denied' ? 'the caller did not allow linking' : params.error,
      );
    }
    if (!params.code) throw new LinkError('the redirect carried no code');
    this.tokens = await this.tokenRequest(
      {
        grant_type: 'authorization_code',
        code: params.code,
        redirect_uri: this.options.redirectUri,
        code_verifier: verifier,
      },
      'user',
    );
    this.event('authorization_code', `Tier 2 token issued, scope ${this.tokens.scope}`);
  }

  async close(): Promise<void> {
    await this.client?.close();
    this.client = undefined;
  }
}
