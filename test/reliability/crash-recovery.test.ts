import { afterEach, describe, expect, it } from 'vitest';
import { addDays } from '../../src/core/local-time.js';
import { approvals } from '../../src/store/approvals.js';
import { auditTrail } from '../../src/store/audit.js';
import { openStore, type Store } from '../../src/store/store.js';
import { ApprovalDesk } from '../../src/usecases/approval-desk.js';
import { createContext } from '../../src/usecases/context.js';
import { DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';
import { HoldDeskProcess } from './support/holddesk-process.js';
import { callTool } from './support/mcp-call.js';
import { suiteTitle } from './support/titles.js';

/**
 * Pulling the plug on one of two instances in the middle of a stream of bookings, while a staff
 * member approves holds as they arrive: every hold a caller was told about is stored exactly once,
 * every approval the staff member saw go through is still there, the audit chain verifies, and the
 * killed instance comes back and serves. Requests in flight to the killed instance fail on the
 * caller's side; whether each committed is unknown to the caller, and both outcomes are fine.
 */
const CALLERS = 12;
const HOLDS_BEFORE_KILL = 30;
const HOLDS_WHILE_DOWN = 15;
const HOLDS_AFTER_RESTART = 15;
const FIRST_DATE = '2026-09-15';
const PLAN_DAYS = 12;
const OFFICE = 'harborview';

interface Slot {
  readonly date: string;
  readonly start_time: string;
  readonly staff_id: string;
}

let cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** Consultations that can all be held at once: on the hour and half past, every free staff member. */
async function plan(mcpUrl: string): Promise<Slot[]> {
  const slots: Slot[] = [];
  for (let day = 0; day < PLAN_DAYS; day++) {
    const date = addDays(FIRST_DATE, day);
    const open = await callTool(mcpUrl, 'check_availability', { date, service: 'consultation' });
    if (open.kind !== 'answered' || !open.result?.ok) continue;
    for (const slot of open.result.slots as { start_time: string; staff_ids: string[] }[]) {
      if (!/:(00|30)$/.test(slot.start_time)) continue;
      for (const staff_id of slot.staff_ids) slots.push({ date, start_time: slot.start_time, staff_id });
    }
  }
  return slots;
}

async function until(condition: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(
    suiteTitle(`SIGKILL mid-storm on ${dialect.name}`, dialect.skipReason),
    () => {
      it(
        'keeps every hold a caller saw, every approval, and an intact audit chain',
        { timeout: 240_000 },
        async () => {
          const database = await dialect.create();
          cleanups.push(() => database.dispose());
          const target = database.target;
          // The schema first (start-up races have a test of their own), then both instances at once,
          // each a process of its own; this process only reads, approves and checks.
          const store: Store = await openStore(target);
          cleanups.push(() => store.close());
          const [victimAtStart, survivor] = await Promise.all([
            HoldDeskProcess.start({ target }),
            HoldDeskProcess.start({ target }),
          ]);
          cleanups.push(
            () => victimAtStart.kill(),
            () => survivor.stop(),
          );
          let victim = victimAtStart;
          const staffDesk = new ApprovalDesk(createContext(await bundledOfficeData(), store, () => DEMO_NOW));

          const slots = await plan(survivor.mcpUrl);
          expect(slots.length).toBeGreaterThan(
            HOLDS_BEFORE_KILL + HOLDS_WHILE_DOWN + HOLDS_AFTER_RESTART + 2 * CALLERS,
          );

          type Phase = 'up' | 'down' | 'restarting' | 'restarted';
          let phase: Phase = 'up';
          let stopped = false;
          let next = 0;
          const told = new Map<string, { slot: Slot; via: 'victim' | 'survivor'; phase: Phase }>();
          const lost: { phase: Phase; error: string }[] = [];
          const wrong: unknown[] = [];

          const caller = async () => {
            while (!stopped && next < slots.length) {
              // Hold back while the victim restarts: a slow start would otherwise use up every
              // planned slot on the survivor before the restarted instance could take any.
              if (phase === 'restarting') {
                await new Promise((r) => setTimeout(r, 20));
                continue;
              }
              const n = next++;
              const slot = slots[n]!;
              // Half the callers reach the victim, as a load balancer would send them, unless it is down.
              const via = n % 2 === 0 && phase !== 'down' ? 'victim' : 'survivor';
              const callPhase = phase;
              const outcome = await callTool(
                (via === 'victim' ? victim : survivor).mcpUrl,
                'book_appointment',
                {
                  client_name: `Caller ${n}`,
                  contact: `caller${n}@example.com`,
                  service: 'consultation',
                  ...slot,
                },
              );
              if (outcome.kind === 'failed') lost.push({ phase: callPhase, error: outcome.error });
              else if (outcome.status === 200 && outcome.result?.ok === true)
                told.set(outcome.result.appointment_id!, { slot, via, phase: callPhase });
              else wrong.push({ via, phase: callPhase, outcome });
            }
          };

          // A staff member approves every other hold as soon as its caller has been told about it.
          const approved = new Set<string>();
          const approver = async () => {
            const requests = approvals(store.db, OFFICE);
            let considered = 0;
            while (!stopped || considered < told.size) {
              const ids = [...told.keys()].slice(considered);
              considered += ids.length;
              for (const [i, id] of ids.entries()) {
                if ((considered - ids.length + i) % 2 !== 0) continue;
                const request = await requests.findAwaitingForAppointment(id, 'hold');
                if (!request) throw new Error(`hold ${id} has no approval request`);
                const decided = await staffDesk.decide(
                  request.id,
                  'approve',
                  { account: 'staff', name: 'Front desk' },
                  undefined,
                );
                if (decided.ok) approved.add(id);
              }
              await new Promise((r) => setTimeout(r, 10));
            }
          };

          const callers = Array.from({ length: CALLERS }, caller);
          const approving = approver();
          const fromVictim = (p: Phase) =>
            [...told.values()].filter((t) => t.via === 'victim' && t.phase === p).length;

          await until(() => told.size >= HOLDS_BEFORE_KILL && fromVictim('up') > 0, 'holds before the kill');
          await victim.kill();
          phase = 'down';
          const atKill = told.size;
          await until(() => told.size >= atKill + HOLDS_WHILE_DOWN, 'holds while one instance is down');
          phase = 'restarting';
          victim = await HoldDeskProcess.start({ target, port: victim.port });
          cleanups.push(() => victim.kill());
          phase = 'restarted';
          await until(
            () => fromVictim('restarted') >= HOLDS_AFTER_RESTART,
            'holds on the restarted instance',
          );
          stopped = true;
          await Promise.all([...callers, approving]);

          // The kill was a SIGKILL in mid-stream: requests were in flight to the victim, and failed.
          expect((await victimAtStart.exited).signal).toBe('SIGKILL');
          expect(wrong).toEqual([]);
          // Only requests sent before the kill can have been cut off; nothing sent since was lost.
          expect(lost.filter((l) => l.phase !== 'up')).toEqual([]);

          const stored = await store.db
            .selectFrom('appointments')
            .select(['id', 'status', 'staff_id', 'starts_at'])
            .execute();
          const storedIds = stored.map((a) => a.id);
          // Every hold a caller was told about is there, exactly once.
          for (const id of told.keys())
            expect(
              storedIds.filter((s) => s === id),
              id,
            ).toEqual([id]);
          // Anything more can only come from a request that was cut off before its caller heard back.
          expect(stored.length - told.size).toBeGreaterThanOrEqual(0);
          expect(stored.length - told.size).toBeLessThanOrEqual(lost.length);
          // Never two holds on one staff member's slot.
          expect(new Set(stored.map((a) => `${a.staff_id} ${a.starts_at}`)).size).toBe(stored.length);

          // Each hold has its one approval request and its audit entry; no approval was lost.
          const requests = await store.db
            .selectFrom('approval_requests')
            .select(['appointment_id', 'status'])
            .where('kind', '=', 'hold')
            .execute();
          expect(requests.map((r) => r.appointment_id).sort()).toEqual([...storedIds].sort());
          expect(approved.size).toBeGreaterThan(0);
          for (const id of approved) {
            expect(requests.find((r) => r.appointment_id === id)?.status, id).toBe('approved');
            expect(stored.find((a) => a.id === id)?.status, id).toBe('confirmed');
          }
          const audit = auditTrail(store.db, OFFICE, store.dialect);
          const entries = await audit.list({ limit: 10_000 });
          const targetsOf = (action: string) =>
            entries
              .filter((e) => e.action === action)
              .map((e) => e.target_id)
              .sort();
          expect(targetsOf('hold.placed')).toEqual([...storedIds].sort());
          expect(targetsOf('hold.approved')).toEqual([...approved].sort());
          expect(await audit.verify()).toMatchObject({ intact: true });

          // The restarted instance is healthy and took part.
          expect(fromVictim('restarted')).toBeGreaterThanOrEqual(HOLDS_AFTER_RESTART);
          expect((await fetch(`${victim.url}/healthz`)).status).toBe(200);
        },
      );
    },
  );
}
