import type { LoginThrottle } from '../auth/login-throttle.js';
import type { Logger } from '../logger.js';
import type { UseCaseContext } from '../usecases/context.js';
import type { StaffAccounts } from '../usecases/staff-accounts.js';
import type { StaffDesk } from '../usecases/staff-desk.js';
import type { LiveStreams } from './live.js';
import type { DeskSessions } from './session.js';
import type { Chrome } from './views/layout.js';

/** What every desk route works with, built once per app. */
export interface DeskServices {
  readonly ctx: UseCaseContext;
  readonly desk: StaffDesk;
  readonly accounts: StaffAccounts;
  readonly sessions: DeskSessions;
  readonly throttle: LoginThrottle;
  readonly live: LiveStreams;
  readonly chrome: Chrome;
  /** Origins a browser may name in `Origin` besides the Host the request was sent to. */
  readonly publicOrigins: ReadonlySet<string>;
  readonly logger: Logger;
}
