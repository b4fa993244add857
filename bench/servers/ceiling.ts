import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The ceiling: a bare Node `http` server that reads the body and answers a fixed JSON-RPC result,
 * as an MCP tool call would be answered, with no protocol machinery at all.
 */
const RESULT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  result: { content: [{ type: 'text', text: 'pong' }], structuredContent: { ok: true, text: 'pong' } },
});

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(RESULT) });
    res.end(RESULT);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
