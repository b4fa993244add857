import { afterEach, describe, expect, it } from 'vitest';
import { auditTrail } from '../../src/store/audit.js';
import { openStore, type Store } from '../../src/store/store.js';
import { DIALECTS, type DialectUnderTest } from '../support/databases.js';
import { startSiblingServer, startTestServer, type TestServer } from '../support/server.js';
import { callTool, type CallOutcome } from './support/mcp-call.js';
import { suiteTitle } from './support/titles.js';

/**
 * A booking storm: 500 callers at once, 25 for each of 20 slots. However the requests interleave,
 * exactly one hold per slot lands, nobody sees a server error, and every loser is told plainly that
 * the slot is taken. On PostgreSQL the callers are spread over two instances sharing the database;
 * an SQLite file is served by one process, so there the storm hits one instance.
 */
const DATE = '2026-09-16';
const TIMES = ['09:00', '09:30', '10:00', '10:30', '11:00', '13:00', '13:30', '14:00', '14:30', '15:00'];
const STAFF = ['maria_chen', 'david_okafor'];
const CALLERS_PER_SLOT = 25;
/** Cells of one 30-minute consultation on the 15-minute grid. */
const CELLS_PER_HOLD = 2;

const SLOTS = TIMES.flatMap((start_time) => STAFF.map((staff_id) => ({ start_time, staff_id })));

let cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function instances(dialect: DialectUnderTest): Promise<{ servers: TestServer[]; store: Store }> {
  const first = await startTestServer(dialect);
  cleanups.push(() => first.dispose());
  const servers = [first];
  if (dialect.name === 'postgres') {
    const second = await startSiblingServer(first);
    cleanups.push(() => second.dispose());
    servers.push(second);
  }
  const store = await openStore(first.database.target, { migrate: false });
  cleanups.push(() => store.close());
  return { servers, store };
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(
    suiteTitle(`booking storm on ${dialect.name}`, dialect.skipReason),
    () => {
      it(
        `${SLOTS.length * CALLERS_PER_SLOT} concurrent holds for ${SLOTS.length} slots give exactly ${SLOTS.length} holds`,
        { timeout: 60_000 },
        async () => {
          const { servers, store } = await instances(dialect);
          const attempts = SLOTS.flatMap((slot, s) =>
            Array.from({ length: CALLERS_PER_SLOT }, (_, c) => ({ slot, caller: s * CALLERS_PER_SLOT + c })),
          );
          const outcomes: CallOutcome[] = await Promise.all(
            attempts.map(({ slot, caller }) =>
              callTool(servers[caller % servers.length]!.mcpUrl, 'book_appointment', {
                client_name: `Storm Caller ${caller}`,
                contact: `storm${caller}@example.com`,
                service: 'consultation',
                date: DATE,
                ...slot,
              }),
            ),
          );

          // Every request got an HTTP answer, and every answer was 200 with a tool result.
          expect(outcomes.filter((o) => o.kind !== 'answered' || o.status !== 200)).toEqual([]);
          const results = outcomes.map((o) => (o.kind === 'answered' ? o.result : undefined));
          const winners = results.filter((r) => r?.ok === true);
          const refusals = results.filter((r) => r?.ok === false).map((r) => r?.error?.code);
          expect(winners).toHaveLength(SLOTS.length);
          expect(refusals).toEqual(
            Array.from({ length: attempts.length - SLOTS.length }, () => 'slot_unavailable'),
          );
          // One winner per slot, not two for one and none for another.
          const won = winners.map((w) => `${String(w?.start_time)} ${String(w?.staff_id)}`);
          expect(new Set(won).size).toBe(SLOTS.length);

          const appointments = await store.db.selectFrom('appointments').select(['id', 'status']).execute();
          expect(appointments.map((a) => a.id).sort()).toEqual(winners.map((w) => w?.appointment_id).sort());
          expect(new Set(appointments.map((a) => a.status))).toEqual(new Set(['pending_approval']));
          const cells = await store.db.selectFrom('slot_cells').select('appointment_id').execute();
          expect(cells).toHaveLength(SLOTS.length * CELLS_PER_HOLD);
          const requests = await store.db
            .selectFrom('approval_requests')
            .select(['kind', 'status'])
            .execute();
          expect(requests).toEqual(
            Array.from({ length: SLOTS.length }, () => ({ kind: 'hold', status: 'pending' })),
          );
          const placed = await store.db
            .selectFrom('audit_log')
            .select('target_id')
            .where('action', '=', 'hold.placed')
            .execute();
          expect(placed.map((e) => e.target_id).sort()).toEqual(appointments.map((a) => a.id).sort());
          expect(await auditTrail(store.db, 'harborview', store.dialect).verify()).toMatchObject({
            intact: true,
          });
        },
      );
    },
  );
}
