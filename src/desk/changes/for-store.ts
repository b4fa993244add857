import type { Logger } from '../../logger.js';
import type { Store } from '../../store/store.js';
import type { ChangeFeed } from './feed.js';
import { PollingChanges } from './polling-feed.js';
import { PostgresChanges } from './postgres-feed.js';

export type { ChangeFeed, DeskChange } from './feed.js';

/** The change feed that fits the database: NOTIFY on PostgreSQL, a polled counter on SQLite. */
export async function createChangeFeed(store: Store, officeId: string, logger: Logger): Promise<ChangeFeed> {
  if (store.native.dialect === 'postgres') {
    const feed = new PostgresChanges(store.native.pool, officeId, logger);
    await feed.start();
    return feed;
  }
  return new PollingChanges(store, officeId, logger);
}
