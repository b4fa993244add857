import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { callTool, connectClient, startTestServer, type TestServer } from '../support/server.js';

const TOOL_NAMES = [
  'answer_office_faq',
  'book_appointment',
  'cancel_appointment',
  'check_availability',
  'estimate_home_insurance_quote_range',
  'get_appointment_status',
  'request_human_approval',
];

const HOLD = {
  client_name: 'Dana Whitfield',
  contact: '(312) 555-0199',
  service: 'consultation',
  date: '2026-09-16',
  start_time: '10:00',
  staff_id: 'maria_chen',
};

const MODES = [
  { name: 'stateless, SSE', settings: {} },
  { name: 'stateless, JSON', settings: { jsonResponse: 'true' } },
  { name: 'stateful, SSE', settings: { stateful: 'true' } },
  { name: 'stateful, JSON', settings: { stateful: 'true', jsonResponse: 'true' } },
];

for (const dialect of DIALECTS) {
  for (const mode of MODES) {
    describe.skipIf(dialect.skipReason !== undefined)(`caller MCP on ${dialect.name}, ${mode.name}`, () => {
      let server: TestServer;
      let client: Client;

      beforeAll(async () => {
        server = await startTestServer(dialect, mode.settings);
        client = await connectClient(server.mcpUrl);
      });

      afterAll(async () => {
        await client.close();
        await server.dispose();
      });

      it('negotiates the latest protocol version', () => {
        expect(client.getServerVersion()?.name).toBe('holddesk');
        expect(client.getInstructions()).toContain('not a booking until a staff member approves it');
      });

      it('lists exactly the seven caller tools, none of which approves or lists the queue', async () => {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
        for (const tool of tools) {
          expect(tool.outputSchema, tool.name).toBeDefined();
          expect(tool.annotations?.readOnlyHint, tool.name).toBeTypeOf('boolean');
          expect(tool.name).not.toMatch(/approve|reject|queue|list/);
        }
        expect(tools.find((t) => t.name === 'check_availability')?.annotations).toMatchObject({
          readOnlyHint: true,
          idempotentHint: true,
        });
        expect(tools.find((t) => t.name === 'book_appointment')?.annotations).toMatchObject({
          readOnlyHint: false,
        });
      });

      it('walks the caller journey: availability, hold, status, cancellation request', async () => {
        const openings = await callTool(client, 'check_availability', {
          date: HOLD.date,
          service: HOLD.service,
        });
        expect(openings).toMatchObject({ ok: true, date: HOLD.date });
        expect((openings.slots as unknown[]).length).toBeGreaterThan(3);
        expect(openings.spoken_summary).toMatch(/and \d+ more/);

        const hold = await callTool(client, 'book_appointment', HOLD);
        expect(hold).toMatchObject({ ok: true, status: 'pending_approval', start_time: '10:00' });
        expect(hold.spoken_summary).toContain('not a booking yet');

        const status = await callTool(client, 'get_appointment_status', {
          appointment_id: hold.appointment_id,
          contact: '0199',
        });
        expect(status).toMatchObject({ ok: true, status: 'pending_approval' });

        const cancel = await callTool(client, 'cancel_appointment', {
          appointment_id: hold.appointment_id,
          contact: HOLD.contact,
          reason: 'plans changed',
        });
        expect(cancel).toMatchObject({ ok: true, status: 'cancel_requested' });
      });

      it('offers nearest alternatives when the slot is taken', async () => {
        const taken = { ...HOLD, start_time: '11:00' };
        expect(await callTool(client, 'book_appointment', taken)).toMatchObject({ ok: true });
        const again = await callTool(client, 'book_appointment', taken);
        expect(again).toMatchObject({ ok: false, error: { code: 'slot_unavailable' } });
        const alternatives = (again.error as { alternatives: unknown[] }).alternatives;
        expect(alternatives.length).toBeGreaterThan(0);
        expect(alternatives.length).toBeLessThanOrEqual(3);
      });

      it('answers office questions and declines to guess', async () => {
        const grounded = await callTool(client, 'answer_office_faq', { question: 'Where can I park?' });
        expect(grounded).toMatchObject({ ok: true, grounded: true });
        const offTopic = await callTool(client, 'answer_office_faq', {
          question: 'What is the capital of France?',
        });
        expect(offTopic).toMatchObject({ ok: true, grounded: false });
      });

      it('gives a non-binding quote range and refers old roofs to underwriting', async () => {
        const quote = await callTool(client, 'estimate_home_insurance_quote_range', {
          state: 'IL',
          dwelling_coverage: 350000,
          year_built: 1995,
        });
        expect(quote).toMatchObject({ ok: true, binding: false });
        expect(quote.disclaimer).toBeTypeOf('string');
        const oldRoof = await callTool(client, 'estimate_home_insurance_quote_range', {
          state: 'IL',
          dwelling_coverage: 350000,
          year_built: 1980,
          roof_age_years: 35,
        });
        expect(oldRoof).toMatchObject({ ok: false, error: { code: 'roof_review_required' } });
      });

      it('escalates to a person and refuses sensitive numbers in any detail', async () => {
        const escalation = await callTool(client, 'request_human_approval', {
          action: 'callback',
          summary: 'Please call me about bundling',
          details: { best_time: 'mornings' },
          urgency: 'high',
        });
        expect(escalation).toMatchObject({ ok: true, status: 'open', urgency: 'high' });
        const refused = await callTool(client, 'request_human_approval', {
          action: 'callback',
          summary: 'Pay my bill',
          details: { payment: { card: '4111 1111 1111 1111' } },
        });
        expect(refused).toMatchObject({
          ok: false,
          error: { code: 'sensitive_data_refused', field: 'details.payment.card' },
        });
        expect(JSON.stringify(refused)).not.toContain('4111');
      });

      it('reports schema violations as MCP tool errors, not results', async () => {
        const result = (await client.callTool({
          name: 'check_availability',
          arguments: { date: 'next tuesday', service: 'massage' },
        })) as CallToolResult;
        expect(result.isError).toBe(true);
      });

      it('serves the office profile and the greeting prompt', async () => {
        const resource = await client.readResource({ uri: 'office://info' });
        const profile = JSON.parse((resource.contents[0] as { text: string }).text) as {
          name: string;
          blocked?: unknown;
        };
        expect(profile.name).toBe('Harborview Insurance Agency');
        expect(profile.blocked).toBeUndefined();
        const prompt = await client.getPrompt({ name: 'front_desk_greeting', arguments: {} });
        expect(JSON.stringify(prompt.messages)).toContain('not a booking until a staff member approves it');
      });
    });
  }
}
