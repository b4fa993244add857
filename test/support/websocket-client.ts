import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A minimal WebSocket client for tests (Node 20 has none built in), written from RFC 6455 directly
 * rather than sharing code with the server under test: it masks what it sends (§5.3), reads unmasked
 * server frames, answers pings and collects text messages as parsed JSON.
 */
export interface TestWebSocket {
  readonly status: number;
  readonly messages: unknown[];
  /** Resolves with the first message (already received or future) that `matches`. */
  next(matches: (message: unknown) => boolean, timeoutMs?: number): Promise<unknown>;
  /** Sends a raw frame (tests of the server's refusals). */
  sendFrame(opcode: number, payload: Buffer, options?: { fin?: boolean; masked?: boolean }): void;
  sendText(text: string): void;
  /** Writes bytes as they are. */
  sendRaw(bytes: Buffer): void;
  close(code?: number): Promise<{ code: number }>;
  /** Resolves when the server closes the connection, with its close code. */
  readonly closed: Promise<{ code: number }>;
}

export function clientFrame(opcode: number, payload: Buffer, { fin = true, masked = true } = {}): Buffer {
  const length = payload.length;
  const extended = length < 126 ? 0 : length < 65_536 ? 2 : 8;
  const header = Buffer.alloc(2 + extended + (masked ? 4 : 0));
  header[0] = (fin ? 0x80 : 0) | opcode;
  header[1] = (masked ? 0x80 : 0) | (extended === 0 ? length : extended === 2 ? 126 : 127);
  if (extended === 2) header.writeUInt16BE(length, 2);
  if (extended === 8) header.writeBigUInt64BE(BigInt(length), 2);
  const body = Buffer.from(payload);
  if (masked) {
    const mask = randomBytes(4);
    mask.copy(header, 2 + extended);
    for (let i = 0; i < body.length; i++) body[i]! ^= mask[i % 4]!;
  }
  return Buffer.concat([header, body]);
}

/** Opens `url` (http://…) as a WebSocket; resolves with the HTTP status when the upgrade is refused. */
export function openWebSocket(url: string, headers: Record<string, string> = {}): Promise<TestWebSocket> {
  const key = randomBytes(16).toString('base64');
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-key': key,
        'sec-websocket-version': '13',
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (response) => {
      response.resume();
      resolve(refused(response.statusCode ?? 0));
    });
    req.on('upgrade', (response, socket: Socket, head: Buffer) => {
      resolve(connected(response.statusCode ?? 0, socket, head));
    });
    req.end();
  });
}

function refused(status: number): TestWebSocket {
  const closed = Promise.resolve({ code: 0 });
  return {
    status,
    messages: [],
    next: () => Promise.reject(new Error(`the upgrade was refused with ${status}`)),
    sendFrame: () => undefined,
    sendText: () => undefined,
    sendRaw: () => undefined,
    close: () => closed,
    closed,
  };
}

function connected(status: number, socket: Socket, head: Buffer): TestWebSocket {
  const messages: unknown[] = [];
  const waiters: { matches: (m: unknown) => boolean; resolve: (m: unknown) => void }[] = [];
  let buffer = head;
  let resolveClosed!: (value: { code: number }) => void;
  const closed = new Promise<{ code: number }>((resolve) => (resolveClosed = resolve));
  let closeCode = 1006;

  const deliver = (message: unknown) => {
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.matches(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  };

  const parse = () => {
    for (;;) {
      if (buffer.length < 2) return;
      const opcode = buffer[0]! & 0x0f;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffer.length < offset + length) return;
      const payload = buffer.subarray(offset, offset + length);
      buffer = buffer.subarray(offset + length);
      if (opcode === 0x1) deliver(JSON.parse(payload.toString('utf8')));
      else if (opcode === 0x9) socket.write(clientFrame(0xa, payload));
      else if (opcode === 0x8) {
        closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        socket.end(clientFrame(0x8, payload.subarray(0, 2)));
      }
    }
  };
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    parse();
  });
  socket.on('close', () => resolveClosed({ code: closeCode }));
  socket.on('error', () => undefined);
  parse();

  return {
    status,
    messages,
    closed,
    next(matches, timeoutMs = 10_000) {
      const found = messages.find(matches);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching WebSocket message in time')), timeoutMs);
        waiters.push({
          matches,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    sendFrame(opcode, payload, options) {
      socket.write(clientFrame(opcode, payload, options));
    },
    sendText(text) {
      socket.write(clientFrame(0x1, Buffer.from(text, 'utf8')));
    },
    sendRaw(bytes) {
      socket.write(bytes);
    },
    close(code = 1000) {
      const payload = Buffer.alloc(2);
      payload.writeUInt16BE(code, 0);
      socket.write(clientFrame(0x8, payload));
      return closed;
    },
  };
}
