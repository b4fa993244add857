import { afterEach, describe, expect, it } from 'vitest';
import { auditTrail } from '../../src/store/audit.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createContext } from '../../src/usecases/context.js';
import { FrontDesk, type HoldInput } from '../../src/usecases/front-desk.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';
import { WorkerProcess } from '../support/workers/processes.js';

/**
 * Double booking is impossible by construction: the primary key on slot cells, not the check done
 * before writing, decides. Every racer reads the slot as free; exactly one commits.
 */

/** A Tuesday in the bundled office's hours, the day after DEMO_NOW; Maria Chen offers policy reviews. */
const HOLD: HoldInput = {
  client_name: 'Racing Caller',
  contact: 'racer@example.com',
  service: 'policy_review',
  date: '2026-09-15',
  start_time: '10:00',
  staff_id: 'maria_chen',
};
/** Sixty-minute reviews starting a quarter hour apart: every pair overlaps. */
const START_TIMES = ['10:00', '10:15', '10:30'];
/** Cells of one 60-minute appointment on the 15-minute grid. */
const CELLS_PER_HOLD = 4;

const [sqlite, postgres] = DIALECTS as [(typeof DIALECTS)[number], (typeof DIALECTS)[number]];

let cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** What the database holds after the race: one hold, its cells, its request and its audit entry. */
async function expectExactlyOneHold(store: Store, winner: string): Promise<void> {
  const appointments = await store.db.selectFrom('appointments').select(['id', 'staff_id']).execute();
  expect(appointments).toEqual([{ id: winner, staff_id: 'maria_chen' }]);
  const cells = await store.db.selectFrom('slot_cells').select('appointment_id').execute();
  expect(cells).toEqual(Array.from({ length: CELLS_PER_HOLD }, () => ({ appointment_id: winner })));
  const requests = await store.db.selectFrom('approval_requests').select('appointment_id').execute();
  expect(requests).toEqual([{ appointment_id: winner }]);
  expect(await auditTrail(store.db, 'harborview', store.dialect).verify()).toMatchObject({
    intact: true,
    entries: 1,
  });
}

describe.skipIf(postgres.skipReason !== undefined)('double booking on postgres', () => {
  it('of 100 parallel holds for overlapping times across two connection pools, exactly one lands', async () => {
    const { store: first, dispose } = await createTestStore(postgres);
    cleanups.push(dispose);
    const second = await openStore(first.target);
    cleanups.push(() => second.close());
    const data = await bundledOfficeData();
    const desks = [first, second].map((store) => new FrontDesk(createContext(data, store, () => DEMO_NOW)));

    const settled = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        desks[i % 2]!.placeHold(`user:racer-${i}`, { ...HOLD, start_time: START_TIMES[i % 3]! }),
      ),
    );

    expect(settled.filter((s) => s.status === 'rejected')).toEqual([]);
    const results = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const winners = results.flatMap((r) => (r.ok ? [r.value.appointment_id] : []));
    expect(winners).toHaveLength(1);
    for (const result of results.filter((r) => !r.ok)) {
      expect(result).toMatchObject({ ok: false, error: { code: 'slot_unavailable' } });
    }
    await expectExactlyOneHold(first, winners[0]!);
  });
});

describe('double booking on sqlite', () => {
  const WORKERS = 3;
  const ATTEMPTS_PER_WORKER = 50;

  it(`of ${WORKERS} processes racing ${ATTEMPTS_PER_WORKER} holds each on one database file, exactly one lands`, async () => {
    const { store, dispose } = await createTestStore(sqlite);
    cleanups.push(dispose);
    if (store.target.dialect !== 'sqlite') throw new Error('expected a SQLite database');
    const path = store.target.path;

    const workers = Array.from({ length: WORKERS }, (_, w) => {
      const plan = {
        subject: `user:worker-${w}`,
        attempts: ATTEMPTS_PER_WORKER,
        hold: HOLD,
        start_times: START_TIMES,
      };
      return new WorkerProcess('./hold-worker.ts', [path, JSON.stringify(plan)]);
    });
    cleanups.push(async () => {
      for (const worker of workers) worker.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
    });
    // Everyone opens the database and warms up first; then all start at the same moment.
    await Promise.all(workers.map((w) => w.waitUntil((m) => m.length > 0, 15_000)));
    for (const worker of workers) worker.send('go');
    const exits = await Promise.all(workers.map((w) => w.exited));

    expect(exits).toEqual(Array.from({ length: WORKERS }, () => ({ code: 0, signal: null })));
    const results = workers.flatMap((w) => w.messages.slice(1)) as Record<string, unknown>[];
    expect(results).toHaveLength(WORKERS * ATTEMPTS_PER_WORKER);
    expect(results.filter((r) => 'thrown' in r)).toEqual([]);
    const winners = results.filter((r) => r.ok === true);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.ok === false && r.code !== 'slot_unavailable')).toEqual([]);
    await expectExactlyOneHold(store, winners[0]!.appointment_id as string);
  });
});
