import { afterEach, describe, expect, it } from 'vitest';
import { chainHash, GENESIS_HASH } from '../../src/core/audit-chain.js';
import { auditTrail } from '../../src/store/audit.js';
import type { Store } from '../../src/store/store.js';
import {
  exportState,
  importState,
  TABLE_ORDER,
  TransferError,
  type StateSnapshot,
} from '../../src/store/transfer.js';
import { ApprovalDesk } from '../../src/usecases/approval-desk.js';
import { createContext, repositories, type UseCaseContext } from '../../src/usecases/context.js';
import { FrontDesk } from '../../src/usecases/front-desk.js';
import { createTestStore, DIALECTS, type DialectUnderTest } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';

/** Every migration this version of HoldDesk applies, in order. */
const APPLIED = [
  '2026-11-29-001-front-desk',
  '2026-11-29-002-accounts-and-oauth',
  '2026-11-29-003-call-gateway',
];

const STAFF = { account: 'staff', name: 'Sam Rivera' };
const CONTACT = '(312) 555-0199';

const dialectNamed = (name: 'sqlite' | 'postgres'): DialectUnderTest =>
  DIALECTS.find((d) => d.name === name)!;
const postgres = dialectNamed('postgres');

let disposers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const dispose of disposers.reverse()) await dispose();
  disposers = [];
});

async function freshStore(dialect: DialectUnderTest): Promise<Store> {
  const { store, dispose } = await createTestStore(dialect);
  disposers.push(dispose);
  return store;
}

async function officeContext(store: Store): Promise<UseCaseContext> {
  return createContext(await bundledOfficeData(), store, () => DEMO_NOW);
}

function expectOk<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

/** A lived-in office: holds approved, rejected and cancelled, a cancellation pending, an escalation resolved. */
async function populate(store: Store): Promise<void> {
  const ctx = await officeContext(store);
  const desk = new FrontDesk(ctx);
  const approvalDesk = new ApprovalDesk(ctx);
  const hold = (
    subject: string,
    staff_id: string,
    date: string,
    start_time: string,
    service = 'consultation',
  ) =>
    desk
      .placeHold(subject, {
        client_name: 'Dana Whitfield',
        contact: CONTACT,
        service,
        date,
        start_time,
        staff_id,
      })
      .then(expectOk);
  const requestFor = async (appointmentId: string) =>
    (await repositories(ctx).approvals.listAwaiting()).find((r) => r.appointment_id === appointmentId)!;

  const approved = await hold('user:dana', 'maria_chen', '2026-09-16', '10:00');
  const rejected = await hold('user:lee', 'david_okafor', '2026-09-16', '10:00');
  const cancelPending = await hold('user:kim', 'sofia_ramirez', '2026-09-17', '09:00', 'policy_review');
  await hold('user:ana', 'james_whitfield', '2026-09-17', '14:00', 'policy_review');

  expectOk(await approvalDesk.decide((await requestFor(approved.appointment_id)).id, 'approve', STAFF, 'ok'));
  expectOk(
    await approvalDesk.decide((await requestFor(rejected.appointment_id)).id, 'reject', STAFF, undefined),
  );
  const cancel = expectOk(
    await desk.requestCancellation('user:dana', approved.appointment_id, CONTACT, 'moving'),
  );
  expectOk(await approvalDesk.decide(cancel.approval_id, 'approve', STAFF, undefined));
  expectOk(await desk.requestCancellation('user:kim', cancelPending.appointment_id, CONTACT, undefined));
  const escalation = expectOk(
    await desk.escalate('user:dana', { action: 'callback', summary: 'Call me', details: { when: 'noon' } }),
  );
  expectOk(await approvalDesk.decide(escalation.approval_id, 'approve', STAFF, 'called back'));
}

/** What must survive a move: everything but when and where the snapshot was taken. */
function portable(snapshot: StateSnapshot) {
  const { exported_at: _at, source_dialect: _from, ...rest } = snapshot;
  return rest;
}

/** The snapshot as it comes back from a file. */
const throughJson = (snapshot: StateSnapshot): unknown => JSON.parse(JSON.stringify(snapshot));

async function expectEmpty(store: Store): Promise<void> {
  const { tables } = await exportState(store);
  for (const rows of Object.values(tables)) expect(rows).toEqual([]);
}

async function expectRefused(snapshot: unknown, message: RegExp, target: Store): Promise<void> {
  const error: unknown = await importState(target, snapshot).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TransferError);
  expect((error as Error).message).toMatch(message);
  expect((error as Error).message).not.toContain('\n');
}

/** `count` appointments, each with one cell and one audit entry: 3 × count rows and a valid chain. */
function largeSnapshot(count: number, migrations: string[]): StateSnapshot {
  const office_id = 'harborview';
  const tables: StateSnapshot['tables'] = {
    appointments: [],
    escalations: [],
    slot_cells: [],
    approval_requests: [],
    audit_log: [],
    audit_heads: [],
    oauth_clients: [],
    caller_accounts: [],
    oauth_families: [],
    oauth_codes: [],
    oauth_tokens: [],
    staff_accounts: [],
    desk_sessions: [],
    personal_access_tokens: [],
    devices: [],
    call_flows: [],
    calls: [],
    call_events: [],
    call_transcript_lines: [],
    call_recordings: [],
    call_summaries: [],
  };
  let prev_hash = GENESIS_HASH;
  for (let i = 1; i <= count; i++) {
    const id = `APT-${String(i).padStart(6, '0')}`;
    const starts_at = new Date(Date.UTC(2026, 8, 15) + i * 15 * 60_000).toISOString();
    tables.appointments.push({
      id,
      office_id,
      owner_subject: 'user:bulk',
      client_name: `Client ${i}`,
      contact_kind: 'email',
      contact_value: `client${i}@example.com`,
      service: 'consultation',
      staff_id: 'maria_chen',
      starts_at,
      ends_at: starts_at,
      notes: null,
      status: 'confirmed',
      status_before_cancel: null,
      cancel_reason: null,
      created_at: DEMO_NOW.toISOString(),
      updated_at: DEMO_NOW.toISOString(),
    });
    tables.slot_cells.push({ office_id, staff_id: 'maria_chen', cell_start: starts_at, appointment_id: id });
    const content = {
      office_id,
      seq: i,
      at: DEMO_NOW.toISOString(),
      actor_kind: 'system',
      actor_id: 'system',
      actor_name: null,
      action: 'bulk.load',
      target_type: 'appointment',
      target_id: id,
      details: { n: i },
    };
    const hash = chainHash(prev_hash, content);
    const { details, ...columns } = content;
    tables.audit_log.push({ ...columns, details_json: JSON.stringify(details), prev_hash, hash });
    prev_hash = hash;
  }
  tables.audit_heads.push({ office_id, seq: count, hash: prev_hash });
  const exported_at = DEMO_NOW.toISOString();
  return { format: 'holddesk-state', version: 1, exported_at, source_dialect: 'sqlite', migrations, tables };
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`state transfer on ${dialect.name}`, () => {
    describe('export', () => {
      it('holds every row of every table in primary-key order, with the applied migrations', async () => {
        const store = await freshStore(dialect);
        await populate(store);
        const snapshot = await exportState(store);
        expect(snapshot).toMatchObject({
          format: 'holddesk-state',
          version: 1,
          source_dialect: dialect.name,
          migrations: APPLIED,
        });
        const { tables } = snapshot;
        expect(Object.keys(tables)).toEqual([...TABLE_ORDER]);
        expect(tables.appointments).toHaveLength(4);
        expect(tables.escalations).toHaveLength(1);
        expect(tables.approval_requests).toHaveLength(7);
        expect(tables.audit_log.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        const newest = tables.audit_log.at(-1)!;
        expect(tables.audit_heads).toEqual([{ office_id: 'harborview', seq: 11, hash: newest.hash }]);
        const ids = tables.appointments.map((a) => a.id);
        expect(ids).toEqual([...ids].sort());
        const cells = tables.slot_cells.map((c) => `${c.staff_id}|${c.cell_start}`);
        expect(cells).toEqual([...cells].sort());
      });

      it('reads nothing from an empty database but the migrations', async () => {
        const store = await freshStore(dialect);
        await expectEmpty(store);
        expect((await exportState(store)).migrations).toEqual(APPLIED);
      });
    });

    describe('round trip', () => {
      it('imports into a fresh database that then exports the same state', async () => {
        const source = await freshStore(dialect);
        await populate(source);
        const first = await exportState(source);
        const target = await freshStore(dialect);
        const imported = await importState(target, throughJson(first));
        expect(imported.tables).toEqual({
          appointments: 4,
          escalations: 1,
          slot_cells: first.tables.slot_cells.length,
          approval_requests: 7,
          audit_log: 11,
          audit_heads: 1,
          oauth_clients: 0,
          caller_accounts: 0,
          oauth_families: 0,
          oauth_codes: 0,
          oauth_tokens: 0,
          staff_accounts: 0,
          desk_sessions: 0,
          personal_access_tokens: 0,
          devices: 0,
          call_flows: 0,
          calls: 0,
          call_events: 0,
          call_transcript_lines: 0,
          call_recordings: 0,
          call_summaries: 0,
        });
        expect(portable(await exportState(target))).toEqual(portable(first));
      });

      it('leaves an office that keeps working: its chain verifies and new holds append to it', async () => {
        const source = await freshStore(dialect);
        await populate(source);
        const target = await freshStore(dialect);
        await importState(target, throughJson(await exportState(source)));
        const ctx = await officeContext(target);
        expect(await repositories(ctx).audit.verify()).toMatchObject({ intact: true, entries: 11 });
        const taken = await new FrontDesk(ctx).placeHold('user:new', {
          client_name: 'New Caller',
          contact: CONTACT,
          service: 'policy_review',
          date: '2026-09-17',
          start_time: '09:30',
          staff_id: 'sofia_ramirez',
        });
        expect(taken).toMatchObject({ ok: false, error: { code: 'slot_unavailable' } });
        const placed = await new FrontDesk(ctx).placeHold('user:new', {
          client_name: 'New Caller',
          contact: CONTACT,
          service: 'consultation',
          date: '2026-09-16',
          start_time: '10:00',
          staff_id: 'maria_chen',
        });
        expect(placed.ok).toBe(true);
        expect(await repositories(ctx).audit.verify()).toMatchObject({ intact: true, entries: 12 });
      });

      it('moves 100k rows in batches, within the parameter limits of the dialect', async () => {
        const target = await freshStore(dialect);
        const snapshot = largeSnapshot(34_000, (await exportState(target)).migrations);
        const imported = await importState(target, snapshot);
        expect(imported.tables).toMatchObject({
          appointments: 34_000,
          slot_cells: 34_000,
          audit_log: 34_000,
        });
        const again = await exportState(target);
        expect(again.tables).toEqual(snapshot.tables);
      });
    });

    describe('refusals', () => {
      it('refuses a database that already holds anything, and leaves it as it was', async () => {
        const source = await freshStore(dialect);
        await populate(source);
        const snapshot = await exportState(source);
        const target = await freshStore(dialect);
        await new FrontDesk(await officeContext(target)).escalate('user:x', {
          action: 'callback',
          summary: 'Hi',
        });
        const before = portable(await exportState(target));
        await expectRefused(snapshot, /^import needs an empty database, but escalations has 1 rows$/, target);
        expect(portable(await exportState(target))).toEqual(before);
      });

      it('refuses what is not a snapshot object', async () => {
        const target = await freshStore(dialect);
        await expectRefused([1, 2], /^not a HoldDesk state snapshot: expected a JSON object$/, target);
        await expectRefused(null, /^not a HoldDesk state snapshot/, target);
      });

      it('refuses another format', async () => {
        const target = await freshStore(dialect);
        const snapshot = { ...(await exportState(target)), format: 'other-app' };
        await expectRefused(snapshot, /^not a HoldDesk state snapshot: format is "other-app"/, target);
        await expectRefused({ version: 1 }, /format is missing/, target);
      });

      it('refuses another version', async () => {
        const target = await freshStore(dialect);
        const snapshot = { ...(await exportState(target)), version: 2 };
        await expectRefused(
          snapshot,
          /^unsupported snapshot version 2: this HoldDesk reads version 1$/,
          target,
        );
      });

      it('refuses malformed rows, naming the first bad field', async () => {
        const source = await freshStore(dialect);
        await populate(source);
        const snapshot = throughJson(await exportState(source)) as StateSnapshot;
        const target = await freshStore(dialect);

        const wrongType = structuredClone(snapshot) as unknown as {
          tables: { appointments: Record<string, unknown>[] };
        };
        wrongType.tables.appointments[2]!.starts_at = 42;
        await expectRefused(wrongType, /^invalid snapshot at tables\.appointments\[2\]\.starts_at: /, target);

        const extraColumn = structuredClone(snapshot) as unknown as {
          tables: { audit_log: Record<string, unknown>[] };
        };
        extraColumn.tables.audit_log[0]!.edited = true;
        await expectRefused(extraColumn, /^invalid snapshot at tables\.audit_log\[0\]: /, target);

        const missingTable = structuredClone(snapshot) as unknown as { tables: Record<string, unknown> };
        delete missingTable.tables.escalations;
        await expectRefused(missingTable, /^invalid snapshot at tables\.escalations: /, target);

        const badSeq = structuredClone(snapshot);
        badSeq.tables.audit_heads[0]!.seq = 0;
        await expectRefused(badSeq, /^invalid snapshot at tables\.audit_heads\[0\]\.seq: /, target);
        await expectEmpty(target);
      });

      it('refuses a tampered audit entry and imports nothing', async () => {
        const source = await freshStore(dialect);
        await populate(source);
        const snapshot = throughJson(await exportState(source)) as StateSnapshot;
        snapshot.tables.audit_log[3]!.actor_id = 'user:someone-else';
        const target = await freshStore(dialect);
        await expectRefused(
          snapshot,
          /^the audit chain of office harborview is broken at entry 4 \(content does not match its hash\); nothing was imported$/,
          target,
        );
        await expectEmpty(target);
      });

      it('refuses a chain cut short at its end and one without a head', async () => {
        const source = await freshStore(dialect);
        await populate(source);
        const snapshot = throughJson(await exportState(source)) as StateSnapshot;
        const target = await freshStore(dialect);

        const cutShort = structuredClone(snapshot);
        cutShort.tables.audit_log.pop();
        await expectRefused(cutShort, /broken at entry 11 \(entries missing at the end\)/, target);

        const headless = structuredClone(snapshot);
        headless.tables.audit_heads = [];
        await expectRefused(
          headless,
          /^the audit chain of office harborview has no head; nothing was imported$/,
          target,
        );
        await expectEmpty(target);
      });

      it('refuses rows that point at nothing, and rolls back what was inserted', async () => {
        const source = await freshStore(dialect);
        await populate(source);
        const snapshot = throughJson(await exportState(source)) as StateSnapshot;
        snapshot.tables.slot_cells[0]!.appointment_id = 'APT-NOWHERE';
        const target = await freshStore(dialect);
        await expectRefused(snapshot, /^import failed and nothing was imported: .*foreign key/i, target);
        await expectEmpty(target);
      });

      it('refuses a snapshot of another schema version', async () => {
        const target = await freshStore(dialect);
        const snapshot = {
          ...(await exportState(target)),
          migrations: [...APPLIED, '2027-01-01-099-next'],
        };
        await expectRefused(
          snapshot,
          /^the snapshot's schema \(2027-01-01-099-next\) differs from this database's \(2026-11-29-003-call-gateway\)/,
          target,
        );
      });
    });
  });
}

describe.skipIf(postgres.skipReason !== undefined)('state transfer from SQLite to PostgreSQL', () => {
  it('preserves every row, and the audit chain verifies on PostgreSQL', async () => {
    const source = await freshStore(dialectNamed('sqlite'));
    await populate(source);
    const snapshot = await exportState(source);
    const target = await freshStore(postgres);
    await importState(target, throughJson(snapshot));

    const moved = await exportState(target);
    expect(moved.source_dialect).toBe('postgres');
    expect(portable(moved)).toEqual(portable(snapshot));
    expect(await auditTrail(target.db, 'harborview', 'postgres').verify()).toMatchObject({
      intact: true,
      entries: 11,
      head: snapshot.tables.audit_heads[0]!.hash,
    });
  });
});
