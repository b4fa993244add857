import { randomBytes } from 'node:crypto';
import { referenceIdFrom, REFERENCE_ID_BYTES, type ReferencePrefix } from '../core/reference-ids.js';
import type { OfficeData } from '../office-data.js';
import { approvals } from '../store/approvals.js';
import { appointments } from '../store/appointments.js';
import { auditTrail } from '../store/audit.js';
import type { Executor, Store } from '../store/store.js';

/** A change to the approval queue, announced after it committed: the audit action and its request. */
export interface QueueChange {
  readonly action: string;
  readonly approvalId: string | null;
}

/** What every use case needs: the office, its database, the clock and a source of fresh ids. */
export interface UseCaseContext {
  readonly data: OfficeData;
  readonly store: Store;
  readonly clock: () => Date;
  readonly newId: (prefix: ReferencePrefix) => string;
  /** Told about every committed queue change, so open desks update live; must not throw. */
  readonly notify?: ((change: QueueChange) => void) | undefined;
}

export function createContext(
  data: OfficeData,
  store: Store,
  clock: () => Date,
  notify?: (change: QueueChange) => void,
): UseCaseContext {
  return {
    data,
    store,
    clock,
    newId: (prefix) => referenceIdFrom(prefix, randomBytes(REFERENCE_ID_BYTES)),
    notify,
  };
}

/** The repositories of one office, bound to the database or to an open transaction. */
export function repositories(ctx: UseCaseContext, db: Executor = ctx.store.db) {
  const officeId = ctx.data.office.id;
  return {
    appointments: appointments(db, officeId),
    approvals: approvals(db, officeId),
    audit: auditTrail(db, officeId, ctx.store.dialect),
  };
}
