import type { Logger } from '../../logger.js';
import type { Store } from '../../store/store.js';
import type { QueueChange } from '../../usecases/context.js';
import { LocalChanges, type ChangeFeed, type ChangeListener } from './feed.js';

export const POLL_INTERVAL_MS = 500;

/**
 * Changes on SQLite. Desks of this process hear a change at once. Another process writing the same
 * database file cannot signal this one, so while any desk is open the feed also polls a change
 * counter that every queue change already bumps: the audit trail's head sequence number (each
 * change commits an audit entry). One indexed single-row read every half second, only while someone
 * is watching; a change from another process reaches desks within that interval.
 */
export class PollingChanges implements ChangeFeed {
  readonly #local = new LocalChanges();
  #lastSeq: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #polling = false;

  constructor(
    private readonly store: Store,
    private readonly officeId: string,
    private readonly logger: Logger,
    private readonly intervalMs = POLL_INTERVAL_MS,
  ) {}

  async #headSeq(): Promise<number> {
    const row = await this.store.db
      .selectFrom('audit_heads')
      .select('seq')
      .where('office_id', '=', this.officeId)
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** Reads the counter; announces a change made elsewhere only when `announce` is set. */
  async #poll(announce = true): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const seq = await this.#headSeq();
      if (announce && this.#lastSeq !== undefined && seq > this.#lastSeq) {
        this.#local.publish({ action: 'changed', approvalId: null });
      }
      this.#lastSeq = Math.max(seq, this.#lastSeq ?? 0);
    } catch (error) {
      this.logger.warn({ err: error }, 'desk live updates: cannot read the change counter');
    } finally {
      this.#polling = false;
    }
  }

  publish(change: QueueChange): void {
    this.#local.publish(change);
    // Remember the counter this change produced, so the next poll does not announce it again.
    if (this.#timer) void this.#poll(false);
  }

  subscribe(listener: ChangeListener): () => void {
    const unsubscribe = this.#local.subscribe(listener);
    if (!this.#timer) {
      void this.#poll();
      this.#timer = setInterval(() => void this.#poll(), this.intervalMs);
      this.#timer.unref();
    }
    return () => {
      unsubscribe();
      if (this.#local.subscribers === 0) {
        clearInterval(this.#timer);
        this.#timer = undefined;
        this.#lastSeq = undefined;
      }
    };
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#local.close();
  }
}
