import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { auditTrail } from '../../src/store/audit.js';
import { openStore } from '../../src/store/store.js';
import { createContext } from '../../src/usecases/context.js';
import { FrontDesk } from '../../src/usecases/front-desk.js';
import { DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';
import { WorkerProcess } from '../support/workers/processes.js';

/**
 * Nothing a caller was told is lost: a process killed outright in the middle of writing holds
 * leaves a database that has every hold it reported, is intact, and keeps working.
 */

const sqlite = DIALECTS.find((d) => d.name === 'sqlite')!;
/** Commits to see before pulling the plug; the worker plans hundreds, so it is still writing. */
const COMMITS_BEFORE_KILL = 20;

let cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const committedIds = (messages: readonly unknown[]): string[] =>
  messages.flatMap((m) => {
    const committed = (m as { committed?: unknown }).committed;
    return typeof committed === 'string' ? [committed] : [];
  });

describe('crash safety on sqlite', () => {
  it('keeps every reported hold when the writing process is killed with SIGKILL', async () => {
    const database = await sqlite.create();
    cleanups.push(() => database.dispose());
    if (database.target.dialect !== 'sqlite') throw new Error('expected a SQLite database');

    const worker = new WorkerProcess('./commit-worker.ts', [database.target.path, '2026-09-15']);
    cleanups.push(async () => {
      worker.kill('SIGKILL');
      await worker.exited;
    });
    await worker.waitUntil((m) => committedIds(m).length >= COMMITS_BEFORE_KILL, 15_000);
    worker.kill('SIGKILL');
    const exit = await worker.exited;

    // Killed mid-stream, not finished: it had planned far more than it got to report.
    expect(exit.signal).toBe('SIGKILL');
    const [plan, ...results] = worker.messages as [{ planned: number }, ...unknown[]];
    const reported = committedIds(results);
    expect(results).toHaveLength(reported.length);
    expect(reported.length).toBeGreaterThanOrEqual(COMMITS_BEFORE_KILL);
    expect(reported.length).toBeLessThan(plan.planned);

    const store = await openStore(database.target);
    cleanups.push(() => store.close());
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(store.db);
    expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);

    const stored = await store.db.selectFrom('appointments').select('id').orderBy('id').execute();
    const storedIds = stored.map((r) => r.id);
    for (const id of reported) expect(storedIds.filter((s) => s === id)).toEqual([id]);
    // At most one more: a hold committed in the instant between its commit and its report.
    expect(storedIds.length - reported.length).toBeGreaterThanOrEqual(0);
    expect(storedIds.length - reported.length).toBeLessThanOrEqual(1);
    const placed = await store.db
      .selectFrom('audit_log')
      .select('target_id')
      .where('action', '=', 'hold.placed')
      .execute();
    expect(placed.map((e) => e.target_id).sort()).toEqual(storedIds);
    expect(await auditTrail(store.db, 'harborview', 'sqlite').verify()).toMatchObject({
      intact: true,
      entries: storedIds.length,
    });

    // The worker only takes on-the-hour starts, so half past is free.
    const desk = new FrontDesk(createContext(await bundledOfficeData(), store, () => DEMO_NOW));
    const after = await desk.placeHold('user:after-crash', {
      client_name: 'After Crash',
      contact: 'after@example.com',
      service: 'consultation',
      date: '2026-09-15',
      start_time: '09:30',
      staff_id: 'maria_chen',
    });
    expect(after).toMatchObject({ ok: true, value: { status: 'pending_approval' } });
  });
});
