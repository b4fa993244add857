import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Authenticator } from '../auth/authenticator.js';
import { jsonRpcErrorResponse, unauthorizedResponse } from '../http/json-rpc-errors.js';
import { checkOrigin, type OriginPolicy } from '../http/origin-guard.js';
import { answerDirectly, type DirectTool } from './direct-call.js';
import { toAuthInfo, type Principal } from './principal.js';
import { isRequest, StatelessMultiplexTransport } from './stateless-transport.js';
import { responseJson } from './tool-result.js';

/**
 * An MCP endpoint over Streamable HTTP (MCP spec 2025-11-25, "Transports"), serving the caller
 * surface (`/mcp`) and the staff gateway (`/staff/mcp`), each with its own authenticator and server.
 * Stateless by default: one long-lived server answers every POST. With `stateful`, each initialize
 * opens a session (`MCP-Session-Id`) served by the SDK's own transport and a server of its own.
 */
export interface McpEndpointOptions<P extends Pick<Principal, 'clientId' | 'scopes'> = Principal> {
  readonly stateful: boolean;
  readonly jsonResponse: boolean;
  readonly origins: OriginPolicy;
  readonly authenticator: Authenticator<P>;
  /** Builds a server around the shared, already-built tool definitions. */
  readonly buildServer: () => McpServer;
  /** Tools a plain stateless `tools/call` may reach without the SDK's protocol machinery. */
  readonly directTools?: ReadonlyMap<string, DirectTool>;
  /** Sent with 401 when generic MCP clients should be pointed at the authorization server. */
  readonly challenge?: string | undefined;
}

export interface McpEndpoint {
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

const MAX_BATCH = 64;
const SESSION_IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 1000;

function hasJsonContentType(request: Request): boolean {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

function acceptsBoth(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  // The client MUST list both (Transports, "Sending Messages to the Server"); */* covers both.
  return (
    accept.includes('*/*') || (accept.includes('application/json') && accept.includes('text/event-stream'))
  );
}

/** Parses a POST body into JSON-RPC messages, or the error response the spec asks for. */
async function readMessages(
  request: Request,
): Promise<{ messages: JSONRPCMessage[]; batch: boolean } | Response> {
  let raw: unknown;
  try {
    raw = JSON.parse(await request.text());
  } catch {
    return jsonRpcErrorResponse(400, -32700, 'Parse error: invalid JSON');
  }
  const items = Array.isArray(raw) ? raw : [raw];
  if (items.length === 0 || items.length > MAX_BATCH) {
    return jsonRpcErrorResponse(400, -32600, `Invalid request: send 1 to ${MAX_BATCH} messages`);
  }
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success)
      return jsonRpcErrorResponse(400, -32600, 'Invalid request: not a JSON-RPC 2.0 message');
    messages.push(parsed.data);
  }
  return { messages, batch: Array.isArray(raw) };
}

function sseBody(messages: readonly JSONRPCMessage[]): string {
  let body = '';
  for (const message of messages) body += `event: message\ndata: ${responseJson(message)}\n\n`;
  return body;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly clientId: string;
  lastSeen: number;
}

export async function createMcpEndpoint<P extends Pick<Principal, 'clientId' | 'scopes'> = Principal>(
  options: McpEndpointOptions<P>,
): Promise<McpEndpoint> {
  const shared = new StatelessMultiplexTransport();
  const sharedServer = options.buildServer();
  await sharedServer.connect(shared);
  const sessions = new Map<string, Session>();

  const sweep = setInterval(() => {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const session of sessions.values()) if (session.lastSeen < cutoff) void session.transport.close();
  }, 60_000);
  sweep.unref();

  async function stateless(request: Request, authInfo: ReturnType<typeof toAuthInfo>): Promise<Response> {
    if (request.method !== 'POST') {
      return jsonRpcErrorResponse(405, -32000, 'Method not allowed: this server is stateless', {
        allow: 'POST',
      });
    }
    if (!acceptsBoth(request)) {
      return jsonRpcErrorResponse(
        406,
        -32000,
        'Not acceptable: accept both application/json and text/event-stream',
      );
    }
    if (!hasJsonContentType(request)) {
      return jsonRpcErrorResponse(415, -32000, 'Unsupported media type: send application/json');
    }
    const body = await readMessages(request);
    if (body instanceof Response) return body;
    const { messages, batch } = body;
    const only = messages.length === 1 && !batch ? messages[0]! : undefined;
    const direct = only && options.directTools && (await answerDirectly(options.directTools, only, authInfo));
    if (direct) return respond([direct], false);
    // Built only if a handler reads it (none of ours does): parsing the URL and copying the headers
    // on every request was a measurable share of a cheap call.
    const requestInfo = {
      get headers() {
        return Object.fromEntries(request.headers);
      },
      get url() {
        return new URL(request.url);
      },
    };
    const outputs = await shared.dispatch(messages, { authInfo, requestInfo });
    if (!messages.some(isRequest)) return new Response(null, { status: 202 });
    return respond(outputs, batch);
  }

  /** The answer to a POST of requests: one JSON body, or the messages as server-sent events. */
  function respond(outputs: readonly JSONRPCMessage[], batch: boolean): Response {
    if (options.jsonResponse) {
      const responses = outputs.filter((m) => 'id' in m);
      return new Response(batch ? JSON.stringify(responses) : responseJson(responses[0]!), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    return new Response(sseBody(outputs), {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' },
    });
  }

  async function openSession(clientId: string): Promise<WebStandardStreamableHTTPServerTransport> {
    if (sessions.size >= MAX_SESSIONS) {
      const oldest = [...sessions.values()].sort((a, b) => a.lastSeen - b.lastSeen)[0];
      await oldest?.transport.close();
    }
    const server = options.buildServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: options.jsonResponse,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, clientId, lastSeen: Date.now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    return transport;
  }

  async function stateful(request: Request, authInfo: ReturnType<typeof toAuthInfo>): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      // A session belongs to the client that opened it; another client's token cannot ride on it.
      if (!session || session.clientId !== authInfo.clientId) {
        return jsonRpcErrorResponse(404, -32001, 'Session not found');
      }
      session.lastSeen = Date.now();
      return session.transport.handleRequest(request, { authInfo });
    }
    if (request.method !== 'POST') {
      return jsonRpcErrorResponse(400, -32000, 'Bad request: Mcp-Session-Id header is required');
    }
    if (!hasJsonContentType(request)) {
      return jsonRpcErrorResponse(415, -32000, 'Unsupported media type: send application/json');
    }
    const body = await readMessages(request);
    if (body instanceof Response) return body;
    const { messages, batch } = body;
    if (!messages.some(isInitializeRequest)) {
      return jsonRpcErrorResponse(400, -32000, 'Bad request: Mcp-Session-Id header is required');
    }
    const transport = await openSession(authInfo.clientId);
    return transport.handleRequest(request, { authInfo, parsedBody: batch ? messages : messages[0] });
  }

  return {
    async handle(request) {
      const misdirected = checkOrigin(request, options.origins);
      if (misdirected) return misdirected;
      const auth = await options.authenticator.authenticate(request);
      if (!auth.ok) return unauthorizedResponse(options.challenge);
      // MCP-Protocol-Version: an unsupported version MUST be answered with 400 (Transports, "Protocol Version Header").
      const version = request.headers.get('mcp-protocol-version');
      if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        return jsonRpcErrorResponse(400, -32000, `Bad request: unsupported protocol version ${version}`);
      }
      const authInfo = toAuthInfo(auth.principal, auth.token);
      return options.stateful ? stateful(request, authInfo) : stateless(request, authInfo);
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      await sharedServer.close();
    },
  };
}
