import { randomBytes } from 'node:crypto';
import { referenceIdFrom, REFERENCE_ID_BYTES, type ReferencePrefix } from '../core/reference-ids.js';
import type { OfficeData } from '../office-data.js';
import { approvals } from '../store/approvals.js';
import { appointments } from '../store/appointments.js';
import { auditTrail } from '../store/audit.js';
import type { Executor, Store } from '../store/store.js';

/** What every use case needs: the office, its database, the clock and a source of fresh ids. */
export interface UseCaseContext {
  readonly data: OfficeData;
  readonly store: Store;
  readonly clock: () => Date;
  readonly newId: (prefix: ReferencePrefix) => string;
}

export function createContext(data: OfficeData, store: Store, clock: () => Date): UseCaseContext {
  return { data, store, clock, newId: (prefix) => referenceIdFrom(prefix, randomBytes(REFERENCE_ID_BYTES)) };
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
