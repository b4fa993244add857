import { connect } from 'node:net';

/**
 * A deliberately dumb HTTP/1.1 client over a bare socket, for requests `fetch` refuses to send:
 * foreign Host headers, unknown methods, invalid UTF-8, header floods, lying lengths. One connection
 * per request, so one request's damage cannot leak into the next.
 */
export interface RawRequest {
  readonly method: string;
  readonly path: string;
  /** Header lines as sent, in order; `Host` is added unless one is given (or `noHost`). */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Buffer;
  /** Send the body with chunked transfer encoding, in pieces of this many bytes. */
  readonly chunked?: number;
  readonly noHost?: boolean;
}

export interface RawResponse {
  /** The status code, or 0 when the connection ended without one. */
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
}

const TIMEOUT_MS = 10_000;

function head(host: string, request: RawRequest): string {
  const lines = [`${request.method} ${request.path} HTTP/1.1`];
  if (!request.noHost && !request.headers.some(([name]) => name.toLowerCase() === 'host')) {
    lines.push(`Host: ${host}`);
  }
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const body = request.body;
  if (body && request.chunked === undefined && !request.headers.some(([n]) => /^content-length$/i.test(n))) {
    lines.push(`Content-Length: ${body.length}`);
  }
  if (request.chunked !== undefined) lines.push('Transfer-Encoding: chunked');
  lines.push('Connection: close', '', '');
  return lines.join('\r\n');
}

function parse(raw: Buffer): RawResponse {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
  const headers = new Map<string, string>();
  for (const line of text
    .slice(0, end < 0 ? text.length : end)
    .split('\r\n')
    .slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return {
    status: status ? Number(status) : 0,
    headers,
    body: end < 0 ? '' : raw.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1')).toString('utf8'),
  };
}

/**
 * Sends one request and reads the answer. A server may answer before it has read the whole body
 * (413 on a declared length): writing stops as soon as an answer starts arriving.
 */
export function send(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const { hostname, port, host } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let answered = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${TIMEOUT_MS} ms to ${request.method} ${request.path}`));
    }, TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => {
      answered = true;
      chunks.push(chunk);
    });
    // The server may reset a connection whose request it refused mid-body; what arrived still counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks)));
    });
    socket.on('connect', () => {
      void (async () => {
        socket.write(head(host, request), 'latin1');
        const body = request.body ?? Buffer.alloc(0);
        const piece = request.chunked ?? 64 * 1024;
        for (let at = 0; at < body.length && !answered && !socket.destroyed; at += piece) {
          const part = body.subarray(at, at + piece);
          const framed =
            request.chunked === undefined
              ? part
              : Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
          if (!socket.write(framed)) await new Promise((r) => socket.once('drain', r));
        }
        if (request.chunked !== undefined && !answered && !socket.destroyed) socket.write('0\r\n\r\n');
      })();
    });
  });
}
