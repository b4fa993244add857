import type { Logger } from '../logger.js';
import type { CallEventView, CallView, TranscriptLineView } from './views.js';

/**
 * What the gateway announces as it happens, in the order it was stored: the WebSocket stream and
 * the MCP resource subscriptions listen here. Events are published after their write committed, so a
 * listener that reads the database sees what the event describes.
 */
export type GatewayEvent =
  | { readonly type: 'call.status'; readonly call: CallView }
  | { readonly type: 'call.event'; readonly call_id: string; readonly event: CallEventView }
  | { readonly type: 'call.transcript'; readonly call_id: string; readonly line: TranscriptLineView }
  | { readonly type: 'call_flows.changed'; readonly call_flow_id: string }
  | { readonly type: 'devices.changed' };

export type GatewayListener = (event: GatewayEvent) => void;

export class GatewayEvents {
  readonly #listeners = new Set<GatewayListener>();

  constructor(private readonly logger: Logger) {}

  /** Starts delivering events to `listener`; returns the function that stops it. */
  subscribe(listener: GatewayListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(event: GatewayEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // One broken subscriber must not stop the others or the call that published.
        this.logger.warn({ err: error, type: event.type }, 'gateway event listener failed');
      }
    }
  }
}
