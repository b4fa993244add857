import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { createContext, type QueueChange } from '../../src/usecases/context.js';
import { expireDueHolds, FrontDesk } from '../../src/usecases/front-desk.js';
import { StaffDesk } from '../../src/usecases/staff-desk.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';

const CALLER = 'user:dana';
const HOLD = {
  client_name: 'Dana Whitfield',
  contact: '(312) 555-0199',
  service: 'consultation',
  date: '2026-09-16',
  start_time: '10:00',
};
const STAFF = { account: 'staff', name: 'Front desk' };

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`queue change announcements on ${dialect.name}`, () => {
    let store: Store;
    let dispose: () => Promise<void>;
    let heard: QueueChange[];
    let now: Date;
    let front: FrontDesk;
    let staff: StaffDesk;

    beforeEach(async () => {
      ({ store, dispose } = await createTestStore(dialect));
      heard = [];
      now = DEMO_NOW;
      const ctx = createContext(
        await bundledOfficeData(),
        store,
        () => now,
        (change) => heard.push(change),
      );
      front = new FrontDesk(ctx);
      staff = new StaffDesk(ctx);
    });

    afterEach(() => dispose());

    it('announces each committed queue change with its request', async () => {
      const hold = await front.placeHold(CALLER, HOLD);
      if (!hold.ok) throw new Error(hold.error.message);
      const [placed] = heard;
      expect(placed?.action).toBe('hold.placed');
      expect(placed?.approvalId).toMatch(/^REQ-/);

      const decided = await staff.decide(placed!.approvalId!, 'approve', STAFF, undefined);
      expect(decided.ok).toBe(true);
      expect(heard[1]).toEqual({ action: 'hold.approved', approvalId: placed!.approvalId });

      const cancel = await front.requestCancellation(
        CALLER,
        hold.value.appointment_id,
        HOLD.contact,
        'moving',
      );
      expect(cancel.ok).toBe(true);
      expect(heard[2]).toMatchObject({ action: 'cancellation.requested' });

      const escalation = await front.escalate(CALLER, { action: 'callback', summary: 'Call me' });
      if (!escalation.ok) throw new Error(escalation.error.message);
      expect(heard[3]).toEqual({ action: 'escalation.opened', approvalId: escalation.value.approval_id });
      const declined = await staff.decide(escalation.value.approval_id, 'reject', STAFF, 'No');
      expect(declined.ok).toBe(true);
      expect(heard[4]).toEqual({ action: 'escalation.declined', approvalId: escalation.value.approval_id });
    });

    it('announces a hold that expired undecided', async () => {
      expect((await front.placeHold(CALLER, HOLD)).ok).toBe(true);
      now = new Date('2026-09-16T16:00:00Z');
      expect(
        await expireDueHolds(
          createContext(
            await bundledOfficeData(),
            store,
            () => now,
            (c) => heard.push(c),
          ),
        ),
      ).toBe(1);
      expect(heard.map((c) => c.action)).toEqual(['hold.placed', 'hold.expired']);
    });

    it('announces nothing for refusals', async () => {
      expect((await front.placeHold(CALLER, { ...HOLD, notes: 'my card is 4111 1111 1111 1111' })).ok).toBe(
        false,
      );
      expect((await front.requestCancellation(CALLER, 'APT-AAAAAA', HOLD.contact, undefined)).ok).toBe(false);
      expect((await staff.decide('REQ-AAAAAA', 'approve', STAFF, undefined)).ok).toBe(false);
      const hold = await front.placeHold(CALLER, HOLD);
      if (!hold.ok) throw new Error(hold.error.message);
      const request = (await staff.queue())[0]!;
      expect((await staff.decide(request.id, 'approve', STAFF, undefined)).ok).toBe(true);
      const again = await staff.decide(request.id, 'reject', STAFF, undefined);
      expect(again).toMatchObject({
        ok: false,
        error: { code: 'already_decided', decided_by: 'Front desk' },
      });
      expect(heard.map((c) => c.action)).toEqual(['hold.placed', 'hold.approved']);
    });
  });
}
