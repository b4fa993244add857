/** The part of autocannon's API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  export interface Histogram {
    readonly average: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
    readonly total: number;
  }
  export interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
  export interface Request extends RawRequest {
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
  }
  export interface Client {
    setHeaders(headers: Record<string, string>): void;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    idReplacement?: boolean;
    setupClient?: (client: Client) => void;
    verifyBody?: (body: string) => boolean;
  }
  export interface Result {
    readonly latency: Histogram;
    readonly requests: Histogram;
    readonly duration: number;
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    readonly mismatches: number;
    readonly '1xx': number;
    readonly '2xx': number;
    readonly '3xx': number;
    readonly '4xx': number;
    readonly '5xx': number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
