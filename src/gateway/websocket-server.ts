import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketLike, WebSocketServerLike } from '@hono/node-server';

/**
 * A small RFC 6455 WebSocket server with the shape `@hono/node-server` expects (`noServer`, the `ws`
 * package's interface), so Hono routes can upgrade with `upgradeWebSocket`. It does what the event
 * stream needs and no more: text and binary messages (fragmented or not), ping/pong, the closing
 * handshake, no extensions and no subprotocols. Anything malformed closes the connection with the
 * status code RFC 6455 §7.4.1 names. The `ws` package fits the same slot if it is ever added.
 */
const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** A client whose unsent data passes this is too slow to follow the stream and is dropped. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 30_000;
const CLOSE_TIMEOUT_MS = 5_000;

const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export const CLOSE_CODE = {
  normal: 1000,
  goingAway: 1001,
  protocolError: 1002,
  invalidData: 1007,
  policyViolation: 1008,
  tooBig: 1009,
} as const;

/** RFC 6455 §4.2.2: base64 of the SHA-1 of the client's key and the protocol's GUID. */
export function acceptKey(key: string): string {
  return createHash('sha1').update(`${key}${ACCEPT_GUID}`).digest('base64');
}

/** One unmasked server frame (§5.2; servers MUST NOT mask, §5.1). */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? Buffer.alloc(2) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (length < 126) {
    header[1] = length;
  } else if (length < 65_536) {
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

class ProtocolFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type ReadyState = 0 | 1 | 2 | 3;

class Connection extends EventEmitter implements WebSocketLike {
  readonly protocol = '';
  readyState: ReadyState = 1;
  alive = true;
  #buffer: Buffer = Buffer.alloc(0);
  #fragments: { opcode: number; parts: Buffer[]; size: number } | undefined;
  #closeSent = false;
  #closeTimer: NodeJS.Timeout | undefined;
  #closed: { code: number; reason: Buffer } = { code: 1006, reason: Buffer.alloc(0) };

  constructor(private readonly socket: Duplex) {
    super();
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('error', (error) => this.emit('error', error));
    socket.on('close', () => {
      clearTimeout(this.#closeTimer);
      this.readyState = 3;
      this.emit('close', this.#closed.code, this.#closed.reason);
    });
  }

  #receive(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    try {
      for (let frame = this.#nextFrame(); frame; frame = this.#nextFrame())
        this.#handle(frame.opcode, frame.fin, frame.payload);
    } catch (error) {
      if (!(error instanceof ProtocolFailure)) throw error;
      this.#buffer = Buffer.alloc(0);
      this.close(error.code, error.message);
    }
  }

  /** The next complete frame in the buffer, unmasked, or undefined until more bytes arrive. */
  #nextFrame(): { opcode: number; fin: boolean; payload: Buffer } | undefined {
    const buffer = this.#buffer;
    if (buffer.length < 2 || this.readyState === 3) return undefined;
    const fin = (buffer[0]! & 0x80) !== 0;
    if ((buffer[0]! & 0x70) !== 0) throw new ProtocolFailure(CLOSE_CODE.protocolError, 'reserved bits set');
    const opcode = buffer[0]! & 0x0f;
    // §5.1: a server MUST close the connection upon receiving a frame that is not masked.
    if ((buffer[1]! & 0x80) === 0)
      throw new ProtocolFailure(CLOSE_CODE.protocolError, 'unmasked client frame');
    let length = buffer[1]! & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (buffer.length < 4) return undefined;
      length = buffer.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (buffer.length < 10) return undefined;
      const long = buffer.readBigUInt64BE(2);
      if (long > BigInt(MAX_MESSAGE_BYTES)) throw new ProtocolFailure(CLOSE_CODE.tooBig, 'message too big');
      length = Number(long);
      offset = 10;
    }
    if (length > MAX_MESSAGE_BYTES) throw new ProtocolFailure(CLOSE_CODE.tooBig, 'message too big');
    if (buffer.length < offset + 4 + length) return undefined;
    const mask = buffer.subarray(offset, offset + 4);
    const payload = Buffer.from(buffer.subarray(offset + 4, offset + 4 + length));
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
    this.#buffer = buffer.subarray(offset + 4 + length);
    return { opcode, fin, payload };
  }

  #handle(opcode: number, fin: boolean, payload: Buffer): void {
    if (opcode >= 0x8) {
      // §5.5: control frames are at most 125 bytes and never fragmented.
      if (!fin || payload.length > 125)
        throw new ProtocolFailure(CLOSE_CODE.protocolError, 'bad control frame');
      if (opcode === OPCODE.close) this.#onClose(payload);
      else if (opcode === OPCODE.ping) this.#write(OPCODE.pong, payload);
      else if (opcode === OPCODE.pong) this.alive = true;
      else throw new ProtocolFailure(CLOSE_CODE.protocolError, 'unknown opcode');
      return;
    }
    if (opcode === OPCODE.continuation) {
      if (!this.#fragments)
        throw new ProtocolFailure(CLOSE_CODE.protocolError, 'continuation without a message');
      this.#fragments.parts.push(payload);
      this.#fragments.size += payload.length;
    } else if (opcode === OPCODE.text || opcode === OPCODE.binary) {
      if (this.#fragments)
        throw new ProtocolFailure(CLOSE_CODE.protocolError, 'new message inside a fragmented one');
      this.#fragments = { opcode, parts: [payload], size: payload.length };
    } else {
      throw new ProtocolFailure(CLOSE_CODE.protocolError, 'unknown opcode');
    }
    if (this.#fragments.size > MAX_MESSAGE_BYTES)
      throw new ProtocolFailure(CLOSE_CODE.tooBig, 'message too big');
    if (!fin) return;
    const { opcode: kind, parts } = this.#fragments;
    this.#fragments = undefined;
    const message = Buffer.concat(parts);
    if (kind === OPCODE.text) {
      try {
        strictUtf8.decode(message);
      } catch {
        throw new ProtocolFailure(CLOSE_CODE.invalidData, 'text is not UTF-8');
      }
    }
    if (this.readyState === 1) this.emit('message', message, kind === OPCODE.binary);
  }

  #onClose(payload: Buffer): void {
    if (payload.length === 1) throw new ProtocolFailure(CLOSE_CODE.protocolError, 'bad close frame');
    const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
    this.#closed = { code, reason: payload.subarray(2) };
    // §5.5.1: answer a close frame with one (echoing the code), then close the connection.
    if (!this.#closeSent) this.#write(OPCODE.close, payload.subarray(0, Math.min(payload.length, 2)));
    this.#closeSent = true;
    this.readyState = 2;
    this.socket.end();
  }

  #write(opcode: number, payload: Buffer): void {
    if (this.socket.destroyed) return;
    this.socket.write(encodeFrame(opcode, payload));
  }

  send(data: string | ArrayBuffer | ArrayBufferView): void {
    if (this.readyState !== 1) return;
    if (this.socket.writableLength > MAX_BUFFERED_BYTES) {
      this.close(CLOSE_CODE.policyViolation, 'client too slow');
      return;
    }
    if (typeof data === 'string') {
      this.#write(OPCODE.text, Buffer.from(data, 'utf8'));
    } else {
      const bytes = ArrayBuffer.isView(data)
        ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
        : Buffer.from(data);
      this.#write(OPCODE.binary, bytes);
    }
  }

  close(code: number = CLOSE_CODE.normal, reason = ''): void {
    if (this.readyState >= 2) return;
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2, 'utf8');
    this.#write(OPCODE.close, payload.subarray(0, 125));
    this.#closeSent = true;
    this.#closed = { code, reason: Buffer.from(reason) };
    this.readyState = 2;
    // The peer answers with its own close frame; if it does not, the connection is cut.
    this.#closeTimer = setTimeout(() => this.socket.destroy(), CLOSE_TIMEOUT_MS);
    this.#closeTimer.unref();
  }

  ping(): void {
    this.alive = false;
    this.#write(OPCODE.ping, Buffer.alloc(0));
  }

  terminate(): void {
    this.socket.destroy();
  }
}

export class WebSocketEndpoint extends EventEmitter implements WebSocketServerLike {
  readonly options = { noServer: true };
  readonly #connections = new Set<Connection>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor() {
    super();
    // A client that did not answer the last ping is gone (a dropped network does not close sockets).
    this.#heartbeat = setInterval(() => {
      for (const connection of this.#connections) {
        if (!connection.alive) connection.terminate();
        else connection.ping();
      }
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  get size(): number {
    return this.#connections.size;
  }

  handleUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    callback: (ws: WebSocketLike) => void,
  ): void {
    const key = request.headers['sec-websocket-key'];
    // §4.2.1: a GET with a 16-byte base64 key and version 13, or the handshake fails.
    if (
      request.method !== 'GET' ||
      typeof key !== 'string' ||
      !/^[A-Za-z0-9+/]{22}==$/.test(key) ||
      request.headers['sec-websocket-version'] !== '13'
    ) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const headers = [
      'HTTP/1.1 101 Switching Protocols',
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Accept: ${acceptKey(key)}`,
    ];
    this.emit('headers', headers, request);
    socket.write(`${headers.join('\r\n')}\r\n\r\n`);
    const connection = new Connection(socket);
    this.#connections.add(connection);
    connection.on('close', () => this.#connections.delete(connection));
    callback(connection);
    if (head.length > 0) socket.emit('data', head);
  }

  /** Closes every connection ("going away"), e.g. when the server stops. */
  close(): void {
    clearInterval(this.#heartbeat);
    for (const connection of this.#connections) connection.close(CLOSE_CODE.goingAway, 'server stopping');
  }
}
