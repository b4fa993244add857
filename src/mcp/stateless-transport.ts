import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResultResponse,
  MessageExtraInfo,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Message kinds by shape. Everything here was validated against the JSON-RPC schema on the way in or
 * comes from the SDK itself, so the SDK's `isJSONRPC*` guards, which parse the whole message (a
 * tool's entire result, for a response) again, would only repeat that work on every request.
 */
export const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest =>
  'method' in message && 'id' in message;
const isResponse = (message: JSONRPCMessage): message is JSONRPCResultResponse | JSONRPCErrorResponse =>
  'id' in message && !('method' in message);

interface Exchange {
  readonly outputs: JSONRPCMessage[];
  awaiting: number;
  readonly done: (outputs: JSONRPCMessage[]) => void;
}

interface PendingRequest {
  readonly exchange: Exchange;
  readonly originalId: RequestId;
}

/**
 * One long-lived MCP server serving every stateless HTTP request. The SDK's documented stateless
 * pattern builds a server and a transport per request, and that protocol machinery, not the work,
 * dominates the cost. Here each request's JSON-RPC ids are rewritten to ids unique in this process
 * (clients all start counting at 0, and concurrent requests must not collide inside the server),
 * dispatched into the shared server, and its responses and related notifications are routed back to
 * the HTTP exchange they belong to, with the client's ids restored.
 */
export class StatelessMultiplexTransport implements Transport {
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  #nextId = 0;
  readonly #pending = new Map<number, PendingRequest>();

  start(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const [id, { exchange, originalId }] of this.#pending) {
      this.#pending.delete(id);
      this.#deliver(exchange, {
        jsonrpc: '2.0',
        id: originalId,
        error: { code: -32000, message: 'Server is shutting down' },
      });
    }
    this.onclose?.();
    return Promise.resolve();
  }

  send(message: JSONRPCMessage, options?: { relatedRequestId?: RequestId }): Promise<void> {
    if (isResponse(message)) {
      const pending = this.#pending.get(message.id as number);
      if (pending) {
        this.#pending.delete(message.id as number);
        this.#deliver(pending.exchange, { ...message, id: pending.originalId });
      }
      return Promise.resolve();
    }
    const related = options?.relatedRequestId;
    const pending = related === undefined ? undefined : this.#pending.get(related as number);
    if (pending) {
      pending.exchange.outputs.push(message);
      return Promise.resolve();
    }
    // Without a session there is no stream to push server-initiated messages to.
    if (isRequest(message)) {
      return Promise.reject(new Error('Stateless mode cannot send requests to the client'));
    }
    return Promise.resolve();
  }

  #deliver(exchange: Exchange, response: JSONRPCMessage): void {
    exchange.outputs.push(response);
    exchange.awaiting -= 1;
    if (exchange.awaiting === 0) exchange.done(exchange.outputs);
  }

  /**
   * Hands one HTTP request's messages to the server; resolves with everything to send back (related
   * notifications in order, then each response) once every request in it has been answered.
   */
  dispatch(messages: readonly JSONRPCMessage[], extra: MessageExtraInfo): Promise<JSONRPCMessage[]> {
    const requests = messages.filter(isRequest);
    return new Promise((resolve) => {
      const exchange: Exchange = { outputs: [], awaiting: requests.length, done: resolve };
      if (requests.length === 0) resolve([]);
      for (const message of messages) {
        if (isRequest(message)) {
          const id = ++this.#nextId;
          if (this.#nextId >= Number.MAX_SAFE_INTEGER) this.#nextId = 0;
          this.#pending.set(id, { exchange, originalId: message.id });
          this.onmessage?.({ ...message, id }, extra);
        } else {
          this.onmessage?.(message, extra);
        }
      }
    });
  }
}
