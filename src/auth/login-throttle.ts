import type { RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiterPostgres, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Store } from '../store/store.js';

/**
 * Failed-login throttling, shared by the OAuth consent login and the staff desk, and kept in the
 * database so every instance counts the same failures:
 * - per client IP and username: 5 failures lock that pair out for 30 s, each further lockout within
 *   a day doubling it, up to 15 min;
 * - per client IP across usernames: 20 failures in an hour lock the IP out for 15 min.
 * During a lockout the password is not even checked, so guessing gains nothing.
 */
export const THROTTLE = {
  pairFailures: 5,
  pairWindowSeconds: 15 * 60,
  firstLockoutSeconds: 30,
  maxLockoutSeconds: 15 * 60,
  ipFailures: 20,
  ipWindowSeconds: 60 * 60,
  ipLockoutSeconds: 15 * 60,
} as const;

const TABLE = 'login_throttle';

export type ThrottleVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

function limiter(
  store: Store,
  keyPrefix: string,
  points: number,
  duration: number,
  blockDuration = 0,
): RateLimiterAbstract {
  const common = {
    keyPrefix,
    points,
    duration,
    blockDuration,
    tableName: TABLE,
    tableCreated: true,
    clearExpiredByTimeout: false,
  };
  return store.native.dialect === 'postgres'
    ? new RateLimiterPostgres({ ...common, storeClient: store.native.pool, storeType: 'pool' })
    : new RateLimiterSQLite({ ...common, storeClient: store.native.database, storeType: 'better-sqlite3' });
}

const secondsUntil = (result: RateLimiterRes | null): number =>
  Math.max(1, Math.ceil((result?.msBeforeNext ?? 1000) / 1000));

export class LoginThrottle {
  readonly #pairs: RateLimiterAbstract;
  readonly #lockouts: RateLimiterAbstract;
  readonly #ips: RateLimiterAbstract;

  constructor(store: Store) {
    this.#pairs = limiter(store, 'login_pair', THROTTLE.pairFailures, THROTTLE.pairWindowSeconds);
    this.#lockouts = limiter(store, 'login_lockouts', 1000, 24 * 60 * 60);
    this.#ips = limiter(
      store,
      'login_ip',
      THROTTLE.ipFailures,
      THROTTLE.ipWindowSeconds,
      THROTTLE.ipLockoutSeconds,
    );
  }

  static #pairKey(ip: string, username: string): string {
    return `${ip}|${username.trim().toLowerCase()}`;
  }

  /** Whether a login attempt may even be checked now. */
  async check(ip: string, username: string): Promise<ThrottleVerdict> {
    const [pair, byIp] = await Promise.all([
      this.#pairs.get(LoginThrottle.#pairKey(ip, username)),
      this.#ips.get(ip),
    ]);
    const pairLocked = pair !== null && pair.consumedPoints >= THROTTLE.pairFailures;
    const ipLocked = byIp !== null && byIp.consumedPoints > THROTTLE.ipFailures;
    if (!pairLocked && !ipLocked) return { allowed: true };
    return {
      allowed: false,
      retryAfterSeconds: Math.max(pairLocked ? secondsUntil(pair) : 0, ipLocked ? secondsUntil(byIp) : 0),
    };
  }

  async recordFailure(ip: string, username: string): Promise<void> {
    const key = LoginThrottle.#pairKey(ip, username);
    await this.#ips.penalty(ip, 1).then(async (res) => {
      if (res.consumedPoints > THROTTLE.ipFailures) await this.#ips.block(ip, THROTTLE.ipLockoutSeconds);
    });
    const pair = await this.#pairs.penalty(key, 1);
    if (pair.consumedPoints >= THROTTLE.pairFailures) {
      const strikes = (await this.#lockouts.penalty(key, 1)).consumedPoints;
      const seconds = Math.min(THROTTLE.firstLockoutSeconds * 2 ** (strikes - 1), THROTTLE.maxLockoutSeconds);
      await this.#pairs.block(key, seconds);
    }
  }

  /** A successful login clears the pair's failures (not the IP's: one good account must not launder guesses). */
  async recordSuccess(ip: string, username: string): Promise<void> {
    await this.#pairs.delete(LoginThrottle.#pairKey(ip, username));
  }
}
