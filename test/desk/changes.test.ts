import { createHash } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChanges, type DeskChange } from '../../src/desk/changes/feed.js';
import { createChangeFeed } from '../../src/desk/changes/for-store.js';
import { PollingChanges } from '../../src/desk/changes/polling-feed.js';
import { PostgresChanges } from '../../src/desk/changes/postgres-feed.js';
import { createLogger } from '../../src/logger.js';
import { openStore, type Store } from '../../src/store/store.js';
import { auditTrail } from '../../src/store/audit.js';
import { DIALECTS, type TestDatabase } from '../support/databases.js';

const logger = createLogger({ logLevel: 'silent' });
const OFFICE = 'harborview';
const sqlite = DIALECTS.find((d) => d.name === 'sqlite')!;
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await wait(10);
  }
}

/** Another process's queue change, as the database sees it: one more audit entry. */
async function appendAudit(store: Store): Promise<void> {
  await store.transaction((tx) =>
    auditTrail(tx, OFFICE, store.dialect).append({
      at: new Date().toISOString(),
      actor_kind: 'caller',
      actor_id: 'user:x',
      actor_name: null,
      action: 'hold.placed',
      target_type: 'appointment',
      target_id: 'APT-X',
      details: {},
    }),
  );
}

describe('LocalChanges', () => {
  it('keeps telling the others when one listener throws, and drops that one', () => {
    const feed = new LocalChanges();
    const heard: string[] = [];
    feed.subscribe(() => {
      throw new Error('broken desk');
    });
    const unsubscribe = feed.subscribe((c) => heard.push(c.action));
    feed.publish({ action: 'hold.placed', approvalId: 'REQ-1' });
    feed.publish({ action: 'hold.approved', approvalId: 'REQ-1' });
    expect(heard).toEqual(['hold.placed', 'hold.approved']);
    expect(feed.subscribers).toBe(1);
    unsubscribe();
    expect(feed.subscribers).toBe(0);
  });
});

describe('PollingChanges on SQLite shared by two processes', () => {
  let database: TestDatabase;
  let a: Store;
  let b: Store;

  beforeAll(async () => {
    database = await sqlite.create();
    a = await openStore(database.target);
    b = await openStore(database.target);
  });

  afterAll(async () => {
    await a.close();
    await b.close();
    await database.dispose();
  });

  it('is what createChangeFeed picks for SQLite', async () => {
    const feed = await createChangeFeed(a, OFFICE, logger);
    expect(feed).toBeInstanceOf(PollingChanges);
    await feed.close();
  });

  it('hears a change committed by another process within the polling interval', async () => {
    const feed = new PollingChanges(a, OFFICE, logger, 50);
    const heard: DeskChange[] = [];
    const unsubscribe = feed.subscribe((c) => heard.push(c));
    await wait(80);
    await appendAudit(b);
    await until(() => heard.length === 1, 1000);
    expect(heard[0]).toMatchObject({ action: 'changed', approvalId: null });
    unsubscribe();
    await feed.close();
  });

  it('announces its own changes at once, and only once', async () => {
    const feed = new PollingChanges(a, OFFICE, logger, 50);
    const heard: DeskChange[] = [];
    feed.subscribe((c) => heard.push(c));
    await wait(80);
    await appendAudit(a);
    feed.publish({ action: 'hold.placed', approvalId: 'REQ-2' });
    expect(heard).toEqual([{ action: 'hold.placed', approvalId: 'REQ-2' }]);
    await wait(250);
    expect(heard).toHaveLength(1);
    await feed.close();
  });

  it('stops polling when nobody listens', async () => {
    const feed = new PollingChanges(a, OFFICE, logger, 20);
    const heard: DeskChange[] = [];
    const unsubscribe = feed.subscribe((c) => heard.push(c));
    await wait(50);
    unsubscribe();
    await appendAudit(b);
    await wait(100);
    expect(heard).toEqual([]);
    await feed.close();
  });
});

function pool(store: Store): pg.Pool {
  if (store.native.dialect !== 'postgres') throw new Error('a PostgreSQL store was expected');
  return store.native.pool;
}

/** The notification channel of a store's database and schema, named as the feed names it. */
async function channelOf(store: Store): Promise<string> {
  const { rows } = await pool(store).query<{ scope: string }>(
    "select current_database() || '.' || current_schema() as scope",
  );
  return `holddesk_${createHash('sha256').update(rows[0]!.scope).digest('hex').slice(0, 16)}`;
}

describe.skipIf(postgres.skipReason !== undefined)('PostgresChanges across instances', () => {
  let database: TestDatabase;
  let a: Store;
  let b: Store;

  beforeAll(async () => {
    database = await postgres.create();
    a = await openStore(database.target);
    b = await openStore(database.target);
  });

  afterAll(async () => {
    await a.close();
    await b.close();
    await database.dispose();
  });

  async function feedOn(store: Store, office = OFFICE): Promise<PostgresChanges> {
    const feed = await createChangeFeed(store, office, logger);
    expect(feed).toBeInstanceOf(PostgresChanges);
    return feed as PostgresChanges;
  }

  it('delivers a change to the other instance, and to its own desks once, without an echo', async () => {
    const one = await feedOn(a);
    const two = await feedOn(b);
    const heardOne: DeskChange[] = [];
    const heardTwo: DeskChange[] = [];
    one.subscribe((c) => heardOne.push(c));
    two.subscribe((c) => heardTwo.push(c));
    one.publish({ action: 'hold.placed', approvalId: 'REQ-3' });
    expect(heardOne).toEqual([{ action: 'hold.placed', approvalId: 'REQ-3' }]);
    await until(() => heardTwo.length === 1, 1000);
    expect(heardTwo).toEqual([{ action: 'hold.placed', approvalId: 'REQ-3' }]);
    await wait(150);
    expect(heardOne).toHaveLength(1);
    await one.close();
    await two.close();
  });

  it('ignores other offices and payloads that are not its own', async () => {
    const mine = await feedOn(a);
    const other = await feedOn(b, 'another-office');
    const heard: DeskChange[] = [];
    mine.subscribe((c) => heard.push(c));
    other.publish({ action: 'hold.placed', approvalId: 'REQ-4' });
    const channel = await channelOf(a);
    await pool(a).query('select pg_notify($1, $2)', [channel, 'not json']);
    await pool(a).query('select pg_notify($1, $2)', [channel, '{"origin":1}']);
    await wait(200);
    expect(heard).toEqual([]);
    await mine.close();
    await other.close();
  });

  it('reconnects after losing its listening connection and tells desks to reload', async () => {
    const one = await feedOn(a);
    const two = await feedOn(b);
    const heard: DeskChange[] = [];
    two.subscribe((c) => heard.push(c));
    const channel = await channelOf(b);
    const killed = await pool(b).query(
      'select pg_terminate_backend(pid) from pg_stat_activity where query = $1',
      [`listen ${channel}`],
    );
    expect(killed.rowCount).toBe(2);
    await until(() => heard.some((c) => c.resync === true), 4000);
    await wait(100);
    one.publish({ action: 'hold.placed', approvalId: 'REQ-5' });
    await until(() => heard.some((c) => c.approvalId === 'REQ-5'), 4000);
    await one.close();
    await two.close();
  });
});
