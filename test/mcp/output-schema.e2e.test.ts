import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { connectClient, startTestServer, type TestServer } from '../support/server.js';

/**
 * The server does not re-validate its own results (that cost 7% of an availability check), so
 * this suite holds every tool to the output schema it advertises, with the validator clients use:
 * successes and refusals alike, and the text block repeating the structured JSON exactly.
 */
const HOLD = {
  client_name: 'Dana Whitfield',
  contact: '(312) 555-0199',
  service: 'consultation',
  date: '2026-09-16',
  start_time: '10:00',
};

/** Arguments for every tool: answers that succeed and the refusals a caller can run into. */
function callsFor(appointmentId: string): [string, Record<string, unknown>][] {
  return [
    ['check_availability', { date: '2026-09-16', service: 'consultation' }],
    ['check_availability', { date: '2026-09-16', service: 'policy_review', staff_id: 'maria_chen' }],
    ['check_availability', { date: '2026-09-19', service: 'consultation' }],
    ['check_availability', { date: '2026-09-01', service: 'consultation' }],
    ['check_availability', { date: '2026-09-16', service: 'consultation', staff_id: 'nobody' }],
    ['book_appointment', { ...HOLD, start_time: '10:30' }],
    ['book_appointment', { ...HOLD, start_time: '10:30' }],
    ['book_appointment', { ...HOLD, start_time: '03:00' }],
    ['book_appointment', { ...HOLD, start_time: '11:00', notes: 'card 4111 1111 1111 1111' }],
    ['get_appointment_status', { appointment_id: appointmentId, contact: HOLD.contact }],
    ['get_appointment_status', { appointment_id: 'APT-NOPE00', contact: HOLD.contact }],
    ['cancel_appointment', { appointment_id: appointmentId, contact: HOLD.contact, reason: 'moved' }],
    ['cancel_appointment', { appointment_id: 'APT-NOPE00', contact: HOLD.contact }],
    ['answer_office_faq', { question: 'Where can I park?' }],
    ['answer_office_faq', { question: 'What is the airspeed of a swallow?' }],
    ['estimate_home_insurance_quote_range', { state: 'IL', dwelling_coverage: 350_000, year_built: 1995 }],
    ['estimate_home_insurance_quote_range', { state: 'ZZ', dwelling_coverage: 350_000, year_built: 1995 }],
    ['request_human_approval', { action: 'callback', summary: 'Please call me back' }],
  ];
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(
    `tool results against their output schemas on ${dialect.name}`,
    () => {
      let server: TestServer;
      let client: Client;
      const validators = new Map<string, JsonSchemaValidator<unknown>>();

      beforeAll(async () => {
        server = await startTestServer(dialect);
        client = await connectClient(server.mcpUrl);
        const ajv = new AjvJsonSchemaValidator();
        for (const tool of (await client.listTools()).tools) {
          validators.set(tool.name, ajv.getValidator(tool.outputSchema as JsonSchemaType));
        }
      });

      afterAll(async () => {
        await client.close();
        await server.dispose();
      });

      it('answers every tool, on success and on refusal, in the shape it advertises', async () => {
        const hold = (await client.callTool({ name: 'book_appointment', arguments: HOLD })) as CallToolResult;
        const appointmentId = (hold.structuredContent as { appointment_id: string }).appointment_id;
        const seen = { ok: new Set<string>(), refused: new Set<string>() };
        for (const [name, args] of callsFor(appointmentId)) {
          const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
          expect(result.isError, `${name} ${JSON.stringify(args)}`).toBeFalsy();
          const verdict = validators.get(name)!(result.structuredContent);
          expect(verdict, `${name} ${JSON.stringify(args)}`).toMatchObject({ valid: true });
          expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
          const ok = (result.structuredContent as { ok: boolean }).ok;
          seen[ok ? 'ok' : 'refused'].add(name);
        }
        // Every tool was seen answering, and every tool that can refuse was seen refusing.
        expect([...seen.ok].sort()).toEqual([...validators.keys()].sort());
        expect(seen.refused.size).toBeGreaterThanOrEqual(5);
      });

      it('names each free staff member of an availability answer once, and only those', async () => {
        const result = (await client.callTool({
          name: 'check_availability',
          arguments: { date: '2026-09-17', service: 'consultation' },
        })) as CallToolResult;
        const answer = result.structuredContent as {
          staff: { id: string; name: string }[];
          slots: { staff_ids: string[] }[];
        };
        const named = answer.staff.map((member) => member.id);
        expect(new Set(named).size).toBe(named.length);
        expect(new Set(answer.slots.flatMap((slot) => slot.staff_ids))).toEqual(new Set(named));
      });

      it('would catch an answer that drifted from its schema', () => {
        const validate = validators.get('check_availability')!;
        const drifted = {
          ok: true,
          spoken_summary: 'x',
          slots: [
            { start_time: '09:00', end_time: '09:30', staff: [{ id: 'maria_chen', name: 'Maria Chen' }] },
          ],
        };
        expect(validate(drifted)).toMatchObject({ valid: false });
      });
    },
  );
}
