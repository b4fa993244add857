import autocannon, { type Client, type RawRequest } from 'autocannon';
import type { ChildServer } from './child.js';

/** One load run against a server in another process: throughput, latency, and the server's RSS. */
export interface LoadSpec {
  readonly server: ChildServer;
  readonly headers: Record<string, string>;
  /** A fixed body; `[<id>]` is replaced by a unique id per request. */
  readonly body?: string;
  /** A body per request (distinct slots), instead of `body`. */
  readonly nextBody?: () => string;
  /** Headers per connection (stateful sessions). */
  readonly connectionHeaders?: () => Record<string, string>;
  readonly connections: number;
  readonly durationSeconds?: number;
  readonly amount?: number;
  /** Whether a 2xx answer is the expected one; others are counted as `wrong`. */
  readonly verify?: (body: string) => boolean;
}

export interface LoadResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly fiveXx: number;
  readonly errors: number;
  readonly wrong: number;
  readonly peakRssMb: number;
  /** Server CPU time per answered request: steadier than throughput on a busy machine. */
  readonly cpuUsPerRequest: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const url = new URL(spec.server.url);
  const dynamic = spec.nextBody;
  const sampler = spec.server.samplePeak();
  const cpuBefore = spec.server.cpuMs();
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: url.origin,
    connections: spec.connections,
    timeout: 30,
    ...(spec.amount === undefined ? { duration: spec.durationSeconds ?? 5 } : { amount: spec.amount }),
    requests: [
      {
        method: 'POST',
        path: url.pathname,
        headers: spec.headers,
        ...(dynamic
          ? { setupRequest: (request: RawRequest) => ({ ...request, body: dynamic() }) }
          : { body: spec.body ?? '' }),
      },
    ],
    idReplacement: spec.body?.includes('[<id>]') ?? false,
    ...(spec.connectionHeaders
      ? {
          setupClient: (client: Client) =>
            client.setHeaders({ ...spec.headers, ...spec.connectionHeaders!() }),
        }
      : {}),
    ...(spec.verify ? { verifyBody: spec.verify } : {}),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuMs = spec.server.cpuMs() - cpuBefore;
  const answered = result['2xx'] + result.non2xx;
  return {
    requests: answered,
    rps: answered / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    fiveXx: result['5xx'],
    errors: result.errors,
    wrong: spec.verify ? result.mismatches : 0,
    peakRssMb: sampler.stop(),
    cpuUsPerRequest: (cpuMs * 1000) / answered,
  };
}
