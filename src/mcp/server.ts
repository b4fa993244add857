import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { OfficeData } from '../office-data.js';
import type { FrontDesk } from '../usecases/front-desk.js';
import type { DirectTool } from './direct-call.js';
import { checkToolAccess, principalOf } from './principal.js';
import { toolResult } from './tool-result.js';
import { SERVER_INSTRUCTIONS, TOOLS } from './tools.js';

export const SERVER_NAME = 'holddesk';

/** The office profile callers may read: no blocked-time reasons, nothing about other callers. */
export function officeProfile({ office }: OfficeData) {
  return {
    name: office.name,
    address: office.address,
    phone: office.phone,
    email: office.email,
    website: office.website ?? null,
    timezone: office.timezone,
    hours: office.hours,
    holidays: office.holidays,
    services: office.services,
    staff: office.staff.map(({ id, name, title, services }) => ({ id, name, title, services })),
    approval_rule: 'Holds and cancellations are requests; a staff member confirms each one.',
  };
}

let listedTools: Tool[] | undefined;

/**
 * The `tools/list` answer, rendered once per process. It is the same for every caller, yet the SDK
 * converts every Zod schema to JSON Schema again on each call, which made a tools/list cost several
 * times a tool call. Rendered with the SDK's own converter and options, so the answer is unchanged.
 */
function toolList(): Tool[] {
  listedTools ??= TOOLS.map((definition) => ({
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: toJsonSchemaCompat(definition.inputSchema, {
      strictUnions: true,
      pipeStrategy: 'input',
    }) as Tool['inputSchema'],
    annotations: { title: definition.title, ...definition.annotations },
    // What `registerTool` records for a tool that is not a task.
    execution: { taskSupport: 'forbidden' },
    outputSchema: toJsonSchemaCompat(definition.outputSchema, {
      strictUnions: true,
      pipeStrategy: 'output',
    }) as Tool['outputSchema'],
  }));
  return listedTools;
}

/**
 * The seven caller tools as answers to validated arguments: each checks the scope policy before it
 * does anything, then calls the front desk use case. Registered with every server, and used directly
 * for plain stateless calls (see `answerDirectly`).
 */
export function callerTools(desk: FrontDesk): ReadonlyMap<string, DirectTool> {
  return new Map(
    TOOLS.map((definition) => [
      definition.name,
      {
        inputSchema: definition.inputSchema,
        answer: async (args: unknown, authInfo: AuthInfo | undefined) => {
          const principal = principalOf(authInfo);
          const refused = checkToolAccess(definition.access, principal);
          if (refused) return toolResult(refused);
          return toolResult(await definition.run(desk, principal!, args as never));
        },
      },
    ]),
  );
}

/** Builds the caller MCP server: the seven tools, `office://info` and `front_desk_greeting`. */
export function buildMcpServer(
  tools: ReadonlyMap<string, DirectTool>,
  data: OfficeData,
  version: string,
): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'HoldDesk front desk', version },
    { instructions: SERVER_INSTRUCTIONS, capabilities: { logging: {} } },
  );

  for (const definition of TOOLS) {
    // The output schema is advertised by `toolList` but not registered here: registered, the SDK
    // re-validates every result against it, about 7% of an availability check. Results are
    // typed, and the conformance test has the official client validate them against the advertised
    // schema, as every client may.
    server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: definition.inputSchema,
        annotations: { title: definition.title, ...definition.annotations },
      },
      (args: unknown, extra) => tools.get(definition.name)!.answer(args, extra.authInfo),
    );
  }

  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));

  const profile = JSON.stringify(officeProfile(data), null, 2);
  server.registerResource(
    'office-info',
    'office://info',
    {
      title: `${data.office.name}: office profile`,
      description: 'Address, hours, services and staff',
      mimeType: 'application/json',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: profile }] }),
  );

  server.registerPrompt(
    'front_desk_greeting',
    {
      title: 'Front desk greeting',
      description: 'How to greet a caller and what the assistant may and may not promise',
      argsSchema: { caller_name: z.string().max(120).optional() },
    },
    ({ caller_name }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Greet the caller${caller_name ? ` (${caller_name})` : ''} on behalf of ${data.office.name} and ask how you can help. ` +
              'You can check openings, place a hold, check or cancel their own appointment, answer office questions, ' +
              'give a non-binding home-insurance range and pass anything else to a person. ' +
              'A hold is not a booking until a staff member approves it; never say it is confirmed unless ' +
              'get_appointment_status says so. Never ask for social security or card numbers.',
          },
        },
      ],
    }),
  );
  return server;
}
