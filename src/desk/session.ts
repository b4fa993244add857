import { randomBytes } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import { sha256Hex } from '../auth/secrets.js';
import type { StaffRole } from '../core/staff-accounts.js';
import { deskSessions } from '../store/desk-sessions.js';
import type { UseCaseContext } from '../usecases/context.js';
import type { StaffAccountView } from '../usecases/staff-accounts.js';
import { newToken } from './csrf.js';

export const SESSION_COOKIE = 'holddesk_desk';
export const LOGIN_COOKIE = 'holddesk_desk_login';
export const SESSION_SECONDS = 8 * 60 * 60;
const LOGIN_FORM_SECONDS = 60 * 60;
/** base64url of 32 bytes is 43 characters; anything much longer is not ours and is not looked up. */
const MAX_COOKIE_LENGTH = 64;

/** The signed-in person behind a request. */
export interface DeskSession {
  readonly idHash: string;
  readonly username: string;
  readonly displayName: string;
  readonly role: StaffRole;
  readonly csrfToken: string;
  readonly expiresAt: string;
}

export interface DeskEnv {
  Variables: { session: DeskSession };
}

/**
 * Desk sessions: an opaque random id (32 bytes) in an `HttpOnly`, `SameSite=Strict` cookie scoped
 * to `/desk`, valid 8 hours; only its SHA-256 is stored, in the database that every instance shares.
 * The cookie is `Secure` when the desk is served over https (the configured public URL).
 */
export class DeskSessions {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly secure: boolean,
    /** Real time: a session must expire even when the office clock is frozen for a demo. */
    private readonly clock: () => Date,
  ) {}

  private get repo() {
    return deskSessions(this.ctx.store.db, this.ctx.data.office.id);
  }

  cookieOptions(maxAge: number): CookieOptions {
    return { httpOnly: true, sameSite: 'Strict', path: '/desk', maxAge, secure: this.secure };
  }

  /** Starts a fresh session (a new id at every sign-in, so a planted id is never promoted). */
  async start(c: Context, account: StaffAccountView): Promise<DeskSession> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    const session: DeskSession = {
      idHash: sha256Hex(id),
      username: account.username,
      displayName: account.display_name,
      role: account.role,
      csrfToken: newToken(),
      expiresAt: new Date(now.getTime() + SESSION_SECONDS * 1000).toISOString(),
    };
    await this.repo.deleteExpired(now.toISOString());
    await this.repo.insert({
      id_hash: session.idHash,
      username: session.username,
      csrf_token: session.csrfToken,
      created_at: now.toISOString(),
      expires_at: session.expiresAt,
    });
    setCookie(c, SESSION_COOKIE, id, this.cookieOptions(SESSION_SECONDS));
    deleteCookie(c, LOGIN_COOKIE, this.cookieOptions(0));
    return session;
  }

  /** The live session the request's cookie names, if any. */
  async find(c: Context): Promise<DeskSession | undefined> {
    const id = getCookie(c, SESSION_COOKIE);
    if (!id || id.length > MAX_COOKIE_LENGTH) return undefined;
    return this.findByHash(sha256Hex(id));
  }

  async findByHash(idHash: string): Promise<DeskSession | undefined> {
    const row = await this.repo.findActive(idHash, this.clock().toISOString());
    if (!row) return undefined;
    return {
      idHash: row.id_hash,
      username: row.username,
      displayName: row.display_name,
      role: row.role,
      csrfToken: row.csrf_token,
      expiresAt: row.expires_at,
    };
  }

  async end(c: Context, session: DeskSession | undefined): Promise<void> {
    if (session) await this.repo.delete(session.idHash);
    deleteCookie(c, SESSION_COOKIE, this.cookieOptions(0));
  }

  /** The login form's double-submit token: reused while its cookie lives, else a new one. */
  loginToken(c: Context): string {
    const existing = getCookie(c, LOGIN_COOKIE);
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const token = newToken();
    setCookie(c, LOGIN_COOKIE, token, this.cookieOptions(LOGIN_FORM_SECONDS));
    return token;
  }

  /** Pages: without a session, go and sign in. */
  requirePage(): MiddlewareHandler<DeskEnv> {
    return async (c, next) => {
      const session = await this.find(c);
      if (!session) return c.redirect('/desk/login', 303);
      c.set('session', session);
      return next();
    };
  }

  /** JSON API: without a session, 401. */
  requireApi(): MiddlewareHandler<DeskEnv> {
    return async (c, next) => {
      const session = await this.find(c);
      if (!session) return c.json({ error: 'unauthorized', message: 'Sign in to the desk first.' }, 401);
      c.set('session', session);
      return next();
    };
  }
}
