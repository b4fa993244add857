import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../../logger.js';
import type { QueueChange } from '../../usecases/context.js';
import { LocalChanges, type ChangeFeed, type ChangeListener } from './feed.js';

const MAX_BACKOFF_MS = 30_000;

interface Envelope {
  readonly origin: string;
  readonly office: string;
  readonly action: string;
  readonly approvalId: string | null;
}

function isEnvelope(value: unknown): value is Envelope {
  const v = value as Partial<Envelope> | null;
  return (
    typeof v?.origin === 'string' &&
    typeof v.office === 'string' &&
    typeof v.action === 'string' &&
    (v.approvalId === null || typeof v.approvalId === 'string')
  );
}

/**
 * Changes across instances through PostgreSQL `LISTEN`/`NOTIFY`. Local desks hear a change at once;
 * other instances hear it through the database, on one dedicated connection per instance (a pooled
 * connection cannot LISTEN: it is handed to other queries). The channel is named after the database
 * and schema, so installations sharing a server in different schemas do not hear each other.
 * After the listening connection drops, it reconnects with backoff and tells desks to reload,
 * because notifications sent meanwhile are lost.
 */
export class PostgresChanges implements ChangeFeed {
  readonly #local = new LocalChanges();
  readonly #origin = randomUUID();
  #channel: string | undefined;
  #client: pg.Client | undefined;
  #closed = false;
  #backoffMs = 1_000;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly officeId: string,
    private readonly logger: Logger,
  ) {}

  /** Starts listening; failures are logged and retried, never thrown (desks still get local changes). */
  async start(): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ scope: string }>(
        "select current_database() || '.' || current_schema() as scope",
      );
      this.#channel = `holddesk_${createHash('sha256').update(rows[0]!.scope).digest('hex').slice(0, 16)}`;
    } catch (error) {
      this.logger.warn({ err: error }, 'desk live updates: cannot name the notification channel');
      this.#scheduleReconnect();
      return;
    }
    await this.#listen(false);
  }

  async #listen(resync: boolean): Promise<void> {
    if (this.#closed || this.#channel === undefined) return;
    const client = new pg.Client(this.pool.options);
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'desk live updates: listening connection failed');
      this.#drop(client);
    });
    client.on('end', () => this.#drop(client));
    client.on('notification', (message) => this.#receive(message.payload));
    try {
      await client.connect();
      await client.query(`listen ${this.#channel}`);
    } catch (error) {
      this.logger.warn({ err: error }, 'desk live updates: cannot listen for notifications');
      this.#drop(client);
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#backoffMs = 1_000;
    if (resync) this.#local.publish({ action: 'resync', approvalId: null, resync: true });
  }

  #drop(client: pg.Client): void {
    if (this.#client === client) this.#client = undefined;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#retry) return;
    const delay = this.#backoffMs;
    this.#backoffMs = Math.min(this.#backoffMs * 2, MAX_BACKOFF_MS);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#channel === undefined) void this.start();
      else void this.#listen(true);
    }, delay);
    this.#retry.unref();
  }

  #receive(payload: string | undefined): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload ?? '');
    } catch {
      return;
    }
    if (!isEnvelope(parsed) || parsed.origin === this.#origin || parsed.office !== this.officeId) return;
    this.#local.publish({ action: parsed.action, approvalId: parsed.approvalId });
  }

  publish(change: QueueChange): void {
    this.#local.publish(change);
    if (this.#channel === undefined) return;
    const envelope: Envelope = {
      origin: this.#origin,
      office: this.officeId,
      action: change.action,
      approvalId: change.approvalId,
    };
    this.pool
      .query('select pg_notify($1, $2)', [this.#channel, JSON.stringify(envelope)])
      .catch((error: unknown) => this.logger.warn({ err: error }, 'desk live updates: cannot notify'));
  }

  subscribe(listener: ChangeListener): () => void {
    return this.#local.subscribe(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    client?.removeAllListeners('end');
    await client?.end().catch(() => undefined);
    await this.#local.close();
  }
}
