import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, upgradeWebSocket } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptKey,
  encodeFrame,
  MAX_MESSAGE_BYTES,
  WebSocketEndpoint,
} from '../../src/gateway/websocket-server.js';
import { openWebSocket } from '../support/websocket-client.js';

describe('the WebSocket server', () => {
  describe('framing (RFC 6455 examples)', () => {
    it('computes the handshake accept value of §1.3', () => {
      expect(acceptKey('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    });

    it('writes a single-frame unmasked text message as in §5.7', () => {
      expect([...encodeFrame(0x1, Buffer.from('Hello'))]).toEqual([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]);
    });

    it('uses the 16-bit and 64-bit extended lengths', () => {
      expect([...encodeFrame(0x2, Buffer.alloc(256)).subarray(0, 4)]).toEqual([0x82, 0x7e, 0x01, 0x00]);
      const big = encodeFrame(0x2, Buffer.alloc(65_536));
      expect([...big.subarray(0, 10)]).toEqual([0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0, 0]);
    });
  });

  describe('over a socket', () => {
    let server: Server;
    let endpoint: WebSocketEndpoint;
    let url: string;

    beforeAll(async () => {
      endpoint = new WebSocketEndpoint();
      const app = new Hono();
      app.get(
        '/echo',
        upgradeWebSocket(() => ({
          onMessage: (event, ws) => {
            const data = event.data as string;
            ws.send(JSON.stringify(data === 'big' ? { echo: 'x'.repeat(70_000) } : { echo: data }));
          },
        })),
      );
      server = createAdaptorServer({ fetch: app.fetch, websocket: { server: endpoint } }) as Server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
    });

    afterAll(async () => {
      endpoint.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('upgrades and echoes text', async () => {
      const ws = await openWebSocket(url);
      expect(ws.status).toBe(101);
      ws.sendText('hi');
      expect(await ws.next(() => true)).toEqual({ echo: 'hi' });
      expect((await ws.close()).code).toBe(1000);
    });

    it('reads the masked "Hello" of §5.7', async () => {
      const ws = await openWebSocket(url);
      ws.sendRaw(Buffer.from([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]));
      expect(await ws.next(() => true)).toEqual({ echo: 'Hello' });
      await ws.close();
    });

    it('joins a fragmented message (§5.4) and answers pings with the same payload', async () => {
      const ws = await openWebSocket(url);
      ws.sendFrame(0x1, Buffer.from('Hel'), { fin: false });
      ws.sendFrame(0x9, Buffer.from('ping!'));
      ws.sendFrame(0x0, Buffer.from('lo'));
      expect(await ws.next(() => true)).toEqual({ echo: 'Hello' });
      await ws.close();
    });

    it('sends long messages with the 64-bit length', async () => {
      const ws = await openWebSocket(url);
      ws.sendText('big');
      const message = (await ws.next(() => true)) as { echo: string };
      expect(message.echo).toHaveLength(70_000);
      await ws.close();
    });

    it.each([
      ['an unmasked frame (§5.1)', 0x1, Buffer.from('x'), { masked: false }, 1002],
      ['a continuation with nothing to continue', 0x0, Buffer.from('x'), {}, 1002],
      ['a fragmented ping', 0x9, Buffer.from('x'), { fin: false }, 1002],
      ['an unknown opcode', 0x3, Buffer.from('x'), {}, 1002],
      ['text that is not UTF-8', 0x1, Buffer.from([0xc3, 0x28]), {}, 1007],
      ['a message over the size limit', 0x2, Buffer.alloc(MAX_MESSAGE_BYTES + 1), {}, 1009],
    ] as const)('closes the connection on %s', async (_name, opcode, payload, options, code) => {
      const ws = await openWebSocket(url);
      ws.sendFrame(opcode, payload, options);
      expect((await ws.closed).code).toBe(code);
    });

    it('closes fragmented messages that grow over the limit', async () => {
      const ws = await openWebSocket(url);
      ws.sendFrame(0x2, Buffer.alloc(MAX_MESSAGE_BYTES - 10), { fin: false });
      ws.sendFrame(0x0, Buffer.alloc(20));
      expect((await ws.closed).code).toBe(1009);
    });

    it('refuses a handshake with another protocol version', async () => {
      const ws = await openWebSocket(url, { 'sec-websocket-version': '8' });
      expect(ws.status).toBe(400);
    });

    it('says "going away" to every client when it closes', async () => {
      const second = new WebSocketEndpoint();
      const app = new Hono();
      app.get(
        '/ws',
        upgradeWebSocket(() => ({})),
      );
      const other = createAdaptorServer({ fetch: app.fetch, websocket: { server: second } }) as Server;
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
      const ws = await openWebSocket(`http://127.0.0.1:${(other.address() as AddressInfo).port}/ws`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(second.size).toBe(1);
      second.close();
      expect((await ws.closed).code).toBe(1001);
      for (let i = 0; i < 50 && second.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(second.size).toBe(0);
      await new Promise((resolve) => other.close(resolve));
    });
  });
});
