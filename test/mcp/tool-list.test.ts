import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { buildMcpServer, callerTools } from '../../src/mcp/server.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { createContext } from '../../src/usecases/context.js';
import { FrontDesk } from '../../src/usecases/front-desk.js';
import { createTestStore, DIALECTS } from '../support/databases.js';
import { bundledOfficeData, DEMO_NOW } from '../support/office.js';

async function listTools(server: McpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'tool-list-test', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  await server.close();
  return tools;
}

describe('tools/list', () => {
  it('answers exactly what the SDK renders for the same registrations, rendered once', async () => {
    const { store, dispose } = await createTestStore(DIALECTS[0]!);
    const data = await bundledOfficeData();
    const desk = new FrontDesk(createContext(data, store, () => DEMO_NOW));

    // The SDK's own rendering: the same registrations, without HoldDesk's rendered-once list.
    const reference = new McpServer({ name: 'reference', version: '1' });
    for (const definition of TOOLS) {
      reference.registerTool(
        definition.name,
        {
          title: definition.title,
          description: definition.description,
          inputSchema: definition.inputSchema,
          outputSchema: definition.outputSchema,
          annotations: { title: definition.title, ...definition.annotations },
        },
        () => ({ content: [] }),
      );
    }

    const first = await listTools(buildMcpServer(callerTools(desk), data, 'test'));
    expect(first).toEqual(await listTools(reference));
    // A second server (a stateful session) serves the very same rendering.
    expect(await listTools(buildMcpServer(callerTools(desk), data, 'test'))).toEqual(first);
    await dispose();
  });
});
