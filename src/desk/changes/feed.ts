import type { QueueChange } from '../../usecases/context.js';

/**
 * How open desks learn that the approval queue changed. Use cases announce each committed change
 * (`publish`); every desk connected to any instance that shares the database hears it (`subscribe`).
 * A change carries no caller data: desks fetch what they show through the signed-in API.
 */
export interface DeskChange extends QueueChange {
  /** True when changes may have been missed (a reconnect): listeners should reload everything. */
  readonly resync?: boolean;
}

export type ChangeListener = (change: DeskChange) => void;

export interface ChangeFeed {
  publish(change: QueueChange): void;
  /** Calls `listener` for every change until the returned function is called. */
  subscribe(listener: ChangeListener): () => void;
  close(): Promise<void>;
}

/** Listeners in this process. Enough on its own for a single instance. */
export class LocalChanges implements ChangeFeed {
  readonly #listeners = new Set<ChangeListener>();

  get subscribers(): number {
    return this.#listeners.size;
  }

  publish(change: DeskChange): void {
    for (const listener of [...this.#listeners]) {
      // One broken desk connection must not keep the others from hearing about the change.
      try {
        listener(change);
      } catch {
        this.#listeners.delete(listener);
      }
    }
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): Promise<void> {
    this.#listeners.clear();
    return Promise.resolve();
  }
}
