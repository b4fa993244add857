import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * A server under test, in a process of its own: the load generator must never share an event loop
 * (or a garbage collector) with what it measures. It reports where it listens on stdout.
 */
export interface ChildServer {
  readonly pid: number;
  /** The URL the child printed once it was listening. */
  readonly url: string;
  /** Resident set size in MiB right now (Linux /proc, else `ps`). */
  rssMb(): number;
  /** CPU time (user + system) the child has used so far, in ms; NaN where /proc is missing. */
  cpuMs(): number;
  /** Samples RSS every 100 ms until `stop`, returning the peak seen. */
  samplePeak(): { stop(): number };
  /**
   * Live memory after a full collection, in MiB; needs the child started with the memory probe
   * (`--expose-gc --import tsx --import bench/servers/memory-probe.ts`).
   */
  liveMemory(): Promise<{ rssMb: number; heapUsedMb: number }>;
  /** SIGTERM and wait for the exit, so `--cpu-prof` can write its profile. */
  stop(): Promise<void>;
  /** Output the child wrote on stderr, for error messages. */
  stderr(): string;
}

export interface SpawnOptions {
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Matched against each stdout line; group 1 is the URL. */
  readonly ready: RegExp;
  readonly nodeArgs?: readonly string[];
  readonly timeoutMs?: number;
}

export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {
    // Not Linux: fall through to ps.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
}

/** Linux reports CPU time in clock ticks; 100 per second on every mainstream kernel build. */
const CLOCK_TICKS_PER_SECOND = 100;

export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces; the fields after it are fixed (utime is the 14th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

export async function spawnServer(options: SpawnOptions): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), ...options.args], {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${options.timeoutMs ?? 30_000} ms: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    lines.on('line', (line) => {
      const match = options.ready.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready: ${stderr}`));
    });
  });
  const pid = child.pid!;
  return {
    pid,
    url,
    rssMb: () => rssOf(pid),
    cpuMs: () => cpuMsOf(pid),
    liveMemory: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the memory probe did not answer')), 10_000);
        const read = (line: string) => {
          const figures = /^memory (\{.*\})$/.exec(line)?.[1];
          if (!figures) return;
          lines.off('line', read);
          clearTimeout(timer);
          const { rss, heapUsed } = JSON.parse(figures) as { rss: number; heapUsed: number };
          resolve({ rssMb: rss / 2 ** 20, heapUsedMb: heapUsed / 2 ** 20 });
        };
        lines.on('line', read);
        child.kill('SIGUSR2');
      }),
    samplePeak: () => {
      let peak = rssOf(pid);
      const timer = setInterval(() => {
        peak = Math.max(peak, rssOf(pid));
      }, 100);
      return {
        stop: () => {
          clearInterval(timer);
          return Math.max(peak, rssOf(pid));
        },
      };
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
    stderr: () => stderr,
  };
}
