import { startServer, type RunningServer } from '../../src/commands/serve.js';
import { parseConfig, type Settings } from '../../src/config.js';
import type { TestDatabase } from '../support/databases.js';
import { DATA_DIR, DEMO_NOW } from '../support/office.js';

/** The desk account every desk suite signs in with (created as an admin at start). */
export const STAFF = { username: 'staff', password: 'correct horse battery', name: 'Front desk' } as const;

export const DESK_SETTINGS: Settings = { deskPassword: STAFF.password };

/** A hold the bundled office accepts on DEMO_NOW (two days later, 10:00 office time). */
export function holdArgs(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_name: 'Dana Whitfield',
    contact: '(312) 555-0199',
    service: 'consultation',
    date: '2026-09-16',
    start_time: '10:00',
    ...overrides,
  };
}

/**
 * Distinct slots inside the bundled office's hours after DEMO_NOW, for as many holds as a suite
 * needs: half-hourly on Wednesday 16 (outside the lunch break) and Thursday 17 September 2026.
 */
export function* openSlots(): Generator<{ date: string; start_time: string }, never> {
  const times = (from: number, to: number) =>
    Array.from(
      { length: (to - from) * 2 },
      (_, i) => `${String(from + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
    );
  const all = [
    ...[...times(9, 12), ...times(13, 19)].map((start_time) => ({ date: '2026-09-16', start_time })),
    ...times(9, 17).map((start_time) => ({ date: '2026-09-17', start_time })),
  ];
  for (const slot of all) yield slot;
  throw new Error('the test ran out of open slots');
}

/** Another HoldDesk instance on an existing test database (several instances share one database). */
export async function startInstanceOn(
  database: TestDatabase,
  settings: Settings = {},
  options: { securityClock?: () => Date } = {},
): Promise<RunningServer> {
  const target = database.target;
  let url: string;
  if (target.dialect === 'sqlite') {
    url = target.path;
  } else {
    const parsed = new URL(target.url);
    parsed.searchParams.set('options', `-c search_path=${target.schema}`);
    url = parsed.toString();
  }
  const config = parseConfig({
    port: '0',
    logLevel: 'silent',
    fixedNow: DEMO_NOW.toISOString(),
    dataDir: DATA_DIR,
    database: url,
    ...DESK_SETTINGS,
    ...settings,
  });
  return startServer(config, { version: 'test', ...options });
}

/** The value of one cookie from a response's Set-Cookie headers, and its attributes. */
export function cookieFrom(
  response: Response,
  name: string,
): { value: string; attributes: string[] } | undefined {
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(';').map((part) => part.trim());
    const [key, ...rest] = pair!.split('=');
    if (key === name) return { value: rest.join('='), attributes };
  }
  return undefined;
}

/** A script's view of the desk: sign in through the JSON API, then call it with cookie and token. */
export class DeskClient {
  cookie = '';
  csrf = '';

  constructor(readonly baseUrl: string) {}

  static async signIn(baseUrl: string, username: string = STAFF.username, password: string = STAFF.password) {
    const client = new DeskClient(baseUrl);
    const response = await client.login(username, password);
    if (response.status !== 200)
      throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
    return client;
  }

  async login(username: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(`${this.baseUrl}/desk/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ username, password }),
    });
    const session = cookieFrom(response, 'holddesk_desk');
    if (response.status === 200 && session) {
      this.cookie = `holddesk_desk=${session.value}`;
      this.csrf = ((await response.clone().json()) as { csrf_token: string }).csrf_token;
    }
    return response;
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, {
      redirect: 'manual',
      ...init,
      headers: { cookie: this.cookie, ...(init.headers as Record<string, string> | undefined) },
    });
  }

  decide(id: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(`/desk/api/approvals/${id}/decision`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': this.csrf, ...headers },
      body: JSON.stringify(body),
    });
  }

  async approvals(): Promise<QueueItemJson[]> {
    const response = await this.fetch('/desk/api/approvals');
    if (response.status !== 200) throw new Error(`approvals: ${response.status}`);
    return ((await response.json()) as { approvals: QueueItemJson[] }).approvals;
  }

  /** Posts a desk form the way a browser does, with the session's CSRF token unless overridden. */
  form(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ csrf_token: this.csrf, ...fields }).toString(),
    });
  }
}

export interface QueueItemJson {
  id: string;
  kind: 'hold' | 'cancellation' | 'escalation';
  status: string;
  caller_said: string | null;
  decided_by_name: string | null;
  decided_by_account: string | null;
  appointment: {
    id: string;
    status: string;
    client_name: string;
    contact: string;
    notes: string | null;
  } | null;
  escalation: { id: string; action: string; summary: string; urgency: string } | null;
}

/** Reads server-sent events from a streaming response until `until` says stop or time runs out. */
export class EventReader {
  readonly events: { event: string; data: string; at: number }[] = [];
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffer = '';
  #closed = false;

  constructor(response: Response) {
    this.#reader = response.body!.getReader();
    void this.#run();
  }

  get closed(): boolean {
    return this.#closed;
  }

  async #run(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await this.#reader.read();
        if (done) break;
        this.#buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = this.#buffer.indexOf('\n\n')) !== -1) {
          const block = this.#buffer.slice(0, end);
          this.#buffer = this.#buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) this.events.push({ event, data: data.join('\n'), at: Date.now() });
        }
      }
    } catch {
      // The connection broke: treat it as the end of the stream.
    }
    this.#closed = true;
  }

  /** Resolves with the first event (after `from`) that matches, or rejects after `timeoutMs`. */
  async next(
    match: (e: { event: string; data: string }) => boolean,
    timeoutMs = 2000,
    from = 0,
  ): Promise<{ event: string; data: string; at: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching event within ${timeoutMs} ms: ${JSON.stringify(this.events)}`);
      if (this.#closed) throw new Error('the event stream ended');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async untilClosed(timeoutMs = 2000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#closed) {
      if (Date.now() > deadline) throw new Error('the event stream did not end');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
