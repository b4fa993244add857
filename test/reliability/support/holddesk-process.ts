import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DatabaseTarget } from '../../../src/store/dialect.js';
import { DATA_DIR, DEMO_NOW } from '../../support/office.js';

/**
 * A real `holddesk serve` in a process of its own (`node --import tsx src/bin.ts`), for what only a
 * process can show: being killed with SIGKILL, its own memory, starting at the same moment as
 * others. It listens on a free port (or the one given) and reports where on stdout.
 */
const BIN = fileURLToPath(new URL('../../../src/bin.ts', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** The value HOLDDESK_DATABASE_URL takes for a test database. */
export function databaseUrl(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return target.path;
  const url = new URL(target.url);
  if (target.schema) url.searchParams.set('options', `-c search_path=${target.schema}`);
  return url.toString();
}

export interface ProcessOptions {
  readonly target: DatabaseTarget;
  /** Extra environment, e.g. OAuth settings (`HOLDDESK_*`). */
  readonly env?: Readonly<Record<string, string>>;
  readonly port?: number;
}

export class HoldDeskProcess {
  readonly url: string;
  readonly port: number;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #child: ChildProcess;
  readonly #stderr: () => string;

  private constructor(
    child: ChildProcess,
    url: string,
    exited: HoldDeskProcess['exited'],
    stderr: () => string,
  ) {
    this.#child = child;
    this.url = url;
    this.port = Number(new URL(url).port);
    this.exited = exited;
    this.#stderr = stderr;
  }

  static async start(options: ProcessOptions): Promise<HoldDeskProcess> {
    // Only what the test chooses: no HOLDDESK_* settings leak in from the environment running the tests.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('HOLDDESK_')),
    );
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', BIN, 'serve', '--port', String(options.port ?? 0)],
      {
        env: {
          ...inherited,
          HOLDDESK_DATABASE_URL: databaseUrl(options.target),
          HOLDDESK_DATA_DIR: DATA_DIR,
          HOLDDESK_FIXED_NOW: DEMO_NOW.toISOString(),
          HOLDDESK_LOG_LEVEL: 'error',
          HOLDDESK_DESK_PASSWORD: 'desk-password-for-tests',
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-10_000);
    });
    const exited: HoldDeskProcess['exited'] = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`holddesk did not start within ${START_TIMEOUT_MS} ms: ${stderr}`));
      }, START_TIMEOUT_MS);
      createInterface({ input: child.stdout }).on('line', (line) => {
        const endpoint = /MCP endpoint\s+(\S+)\/mcp/.exec(line)?.[1];
        if (endpoint) {
          clearTimeout(timer);
          resolve(endpoint);
        }
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`holddesk exited (${code ?? signal}) before it was ready: ${stderr}`));
      });
    });
    return new HoldDeskProcess(child, url, exited, () => stderr);
  }

  get pid(): number {
    return this.#child.pid!;
  }

  get mcpUrl(): string {
    return `${this.url}/mcp`;
  }

  /** Resident set size in MiB, from /proc (Linux, where the tests run). */
  rssMb(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]) / 1024;
  }

  /** Whether the process is still running (it has not crashed). */
  get alive(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  stderr(): string {
    return this.#stderr();
  }

  /** SIGKILL: no shutdown handler runs, nothing is flushed; what is committed must be enough. */
  async kill(): Promise<void> {
    if (this.alive) this.#child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: the orderly stop an operator would do. */
  async stop(): Promise<void> {
    if (this.alive) this.#child.kill('SIGTERM');
    const cut = setTimeout(() => this.#child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(cut);
  }
}
