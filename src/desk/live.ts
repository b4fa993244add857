import type { ChangeFeed, DeskChange } from './changes/feed.js';

export const HEARTBEAT_MS = 15_000;

/**
 * Server-sent events (HTML Living Standard §9.2) telling open desks that the queue changed. Events
 * name the change and the request, nothing about the caller: the page then fetches what it shows
 * through its signed-in session. A comment line every few seconds keeps proxies from timing the
 * stream out and re-checks the session, so a signed-out or disabled account stops hearing changes.
 */
export class LiveStreams {
  readonly #open = new Set<() => void>();

  constructor(
    private readonly changes: ChangeFeed,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {}

  get size(): number {
    return this.#open.size;
  }

  open(stillSignedIn: () => Promise<boolean>): Response {
    const encoder = new TextEncoder();
    const streams = this.#open;
    let stop = (): void => undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let closed = false;
        const send = (text: string): void => {
          if (closed) return;
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            stop();
          }
        };
        const unsubscribe = this.changes.subscribe((change: DeskChange) => {
          send(
            `event: queue\ndata: ${JSON.stringify({
              action: change.action,
              approval_id: change.approvalId,
              resync: change.resync ?? false,
            })}\n\n`,
          );
        });
        const heartbeat = setInterval(() => {
          stillSignedIn().then(
            (yes) => (yes ? send(': keep-alive\n\n') : stop()),
            () => stop(),
          );
        }, this.heartbeatMs);
        heartbeat.unref();
        stop = () => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          unsubscribe();
          streams.delete(stop);
          try {
            controller.close();
          } catch {
            // Already closed by the client going away.
          }
        };
        streams.add(stop);
        // `retry` sets how soon the browser reconnects; `ready` tells it the stream is live.
        send('retry: 2000\nevent: ready\ndata: {}\n\n');
      },
      cancel: () => stop(),
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // Reverse proxies (nginx) would otherwise buffer the stream and delay every event.
        'x-accel-buffering': 'no',
        // A finished stream closes its connection, so a drained desk does not hold shutdown up as
        // an idle kept-alive socket; browsers reconnect on a new one anyway.
        connection: 'close',
      },
    });
  }

  /** Ends every open stream (shutdown): browsers reconnect to another instance or when back. */
  drain(): void {
    for (const stop of [...this.#open]) stop();
  }
}
