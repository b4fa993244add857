import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * A worker script run in its own Node process, talking JSON lines: it writes one JSON value per
 * line on stdout, and reads plain lines on stdin. Separate processes are what make the database's
 * own locking, not this process's event loop, decide who wins.
 */
export class WorkerProcess {
  readonly messages: unknown[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #stderr = '';
  #closed = false;
  #waiters: (() => void)[] = [];
  readonly #child: ChildProcess;

  constructor(script: string, args: readonly string[]) {
    const path = fileURLToPath(new URL(script, import.meta.url));
    this.#child = spawn(process.execPath, ['--import', 'tsx', path, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    createInterface({ input: this.#child.stdout! }).on('line', (line) => {
      this.messages.push(JSON.parse(line));
      this.#notify();
    });
    this.#child.stderr!.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
    // 'close' rather than 'exit': it comes after every line the worker wrote has been read.
    this.exited = new Promise((resolve) => {
      this.#child.on('close', (code, signal) => {
        this.#closed = true;
        resolve({ code, signal });
        this.#notify();
      });
    });
  }

  #notify(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once `enough` holds for the messages so far; rejects if the worker exits first or time runs out. */
  async waitUntil(enough: (messages: readonly unknown[]) => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!enough(this.messages)) {
      if (this.#closed) throw new Error(`worker exited before it was ready: ${this.#stderr.trim()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`worker did not get there in ${timeoutMs} ms: ${this.#stderr.trim()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  send(line: string): void {
    this.#child.stdin!.write(`${line}\n`);
  }

  kill(signal: NodeJS.Signals): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill(signal);
  }
}
