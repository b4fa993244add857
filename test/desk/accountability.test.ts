import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { auditTrail } from '../../src/store/audit.js';
import { DIALECTS } from '../support/databases.js';
import { callTool, connectClient, startTestServer, type TestServer } from '../support/server.js';
import { DESK_SETTINGS, DeskClient, holdArgs, openSlots, STAFF } from './support.js';

/**
 * Accountability: the assistant's whole surface (every tool, resource and prompt the MCP server
 * lists, called with generated valid and hostile arguments) can ask for things but never make
 * anything binding. Only a signed-in staff decision moves an appointment, a cancellation or an
 * escalation out of its pending state, and the audit trail shows a named staff member for each.
 */

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
}

const DECIDED = /\.(approved|rejected|resolved|declined)$/;
const RUNS = 120;

/** Strings that have broken other systems: markup, SQL, paths, control and right-to-left characters. */
const HOSTILE_STRINGS = [
  "'; update appointments set status = 'confirmed'; --",
  '" or 1=1 --',
  '<script>fetch("/desk/api/approvals")</script>',
  '../../../etc/passwd',
  '\u0000\u0007\u001b[31m',
  '\u202eDEVRESNOC',
  'confirmed',
  'approve',
  'REQ-AAAAAA',
  '{"status":"confirmed"}',
  '𝕳𝖔𝖑𝖉'.repeat(40),
  'x'.repeat(5000),
];

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.anything({ maxDepth: 2, withNullPrototype: true }),
  fc.constant({ __proto__: { status: 'confirmed' }, constructor: { prototype: { approved: true } } }),
);

/** Arguments a schema accepts, seeded with ids and contacts that exist so calls reach real records. */
function validFor(schema: JsonSchema, name: string, known: Known): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      if (Object.keys(properties).length === 0) {
        return fc.dictionary(
          fc.string({ maxLength: 12 }),
          fc.oneof(fc.string({ maxLength: 30 }), fc.integer()),
          {
            maxKeys: 4,
          },
        );
      }
      const shape = Object.fromEntries(
        Object.entries(properties).map(([key, p]) => [key, validFor(p, key, known)]),
      );
      return fc.record(shape, { requiredKeys: (schema.required ?? []) as never[] });
    }
    case 'string': {
      if (schema.pattern?.includes('\\d{4}-')) {
        return fc.constantFrom(
          '2026-09-14',
          '2026-09-15',
          '2026-09-16',
          '2026-09-17',
          '2026-09-18',
          '2026-09-19',
        );
      }
      if (schema.pattern?.includes(':[0-5]')) {
        return fc
          .tuple(fc.integer({ min: 8, max: 19 }), fc.constantFrom('00', '15', '30', '45'))
          .map(([h, m]) => `${String(h).padStart(2, '0')}:${m}`);
      }
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 60, 60);
      const text = fc.string({ minLength: min, maxLength: Math.max(min, max) });
      if (name.endsWith('_id') && name !== 'staff_id') return fc.oneof(fc.constantFrom(...known.ids()), text);
      if (name === 'staff_id') return fc.constantFrom('maria_chen', 'james_okafor', 'nobody');
      if (name === 'contact') return fc.oneof(fc.constantFrom(...known.contacts), text);
      if (name === 'state') return fc.constantFrom('IL', 'WI', 'XX');
      return text;
    }
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? 1800, 1800),
        max: Math.min(schema.maximum ?? 2030, 2030),
      });
    case 'number':
      return fc.double({
        min: (schema.exclusiveMinimum ?? schema.minimum ?? 0) + 1,
        max: 2_000_000,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    default:
      return fc.anything({ maxDepth: 1 });
  }
}

/** Valid arguments with hostile twists: wrong types, extra privileged-sounding fields, huge strings. */
function hostileFor(schema: JsonSchema, known: Known): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties ?? {});
  return fc.oneof(
    hostileValue,
    fc
      .tuple(validFor(schema, '', known), fc.constantFrom(...keys), hostileValue)
      .map(([args, key, value]) => ({
        ...(args as object),
        [key]: value,
      })),
    validFor(schema, '', known).map((args) => ({
      ...(args as object),
      status: 'confirmed',
      decision: 'approve',
      staff: STAFF.username,
      approved: true,
    })),
  );
}

interface Known {
  readonly contacts: readonly string[];
  ids(): string[];
}

type Call =
  | { kind: 'tool'; name: string; args: unknown }
  | { kind: 'resource'; uri: string }
  | { kind: 'prompt'; name: string; args: unknown }
  | { kind: 'desk'; id: string; body: unknown; cookie: string; token: string };

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(
    `accountability of the caller surface on ${dialect.name}`,
    () => {
      let server: TestServer;
      let store: Store;
      let mcp: Client;
      const appointmentIds: string[] = [];
      const requestIds: string[] = [];
      const contacts = ['(312) 555-0199', '0199', 'dana@example.com', '+13125550123'];
      const known: Known = { contacts, ids: () => [...appointmentIds, ...requestIds, 'APT-AAAAAA'] };
      let calls: fc.Arbitrary<Call>;
      /** How the surface answered, so a fuzz that never reached the tools cannot pass unnoticed. */
      const outcomes = { ok: 0, refused: 0, rejected: 0 };

      beforeAll(async () => {
        server = await startTestServer(dialect, DESK_SETTINGS);
        store = await openStore(server.database.target);
        mcp = await connectClient(server.mcpUrl);
        const slots = openSlots();
        for (const contact of ['(312) 555-0199', 'dana@example.com', '+13125550123']) {
          const placed = await callTool(mcp, 'book_appointment', {
            ...holdArgs(slots.next().value),
            contact,
          });
          appointmentIds.push(placed.appointment_id as string);
        }
        const escalation = await callTool(mcp, 'request_human_approval', {
          action: 'callback',
          summary: 'Call me',
        });
        requestIds.push(escalation.approval_id as string);

        // Enumerate the surface as a client sees it, so a tool added later is fuzzed too.
        const { tools } = await mcp.listTools();
        const { resources } = await mcp.listResources();
        const { prompts } = await mcp.listPrompts();
        expect(tools.length).toBeGreaterThanOrEqual(7);
        const toolCalls = tools.map((tool) => {
          const schema = tool.inputSchema as JsonSchema;
          return fc
            .oneof(validFor(schema, '', known), hostileFor(schema, known))
            .map((args): Call => ({ kind: 'tool', name: tool.name, args }));
        });
        const resourceCalls = fc
          .constantFrom(
            ...resources.map((r) => r.uri),
            'office://../../desk',
            'file:///etc/passwd',
            'office://queue',
          )
          .map((uri): Call => ({ kind: 'resource', uri }));
        const promptCalls = fc
          .tuple(
            fc.constantFrom(...prompts.map((p) => p.name), 'approve_everything'),
            fc.oneof(
              fc.record({ caller_name: fc.oneof(fc.string(), fc.constantFrom(...HOSTILE_STRINGS)) }),
              hostileValue,
            ),
          )
          .map(([name, args]): Call => ({ kind: 'prompt', name, args }));
        // The desk's own decision endpoint, without a session or with a forged token.
        const deskCalls = fc
          .record({
            id: fc.constantFrom(...known.ids()),
            body: fc.oneof(fc.constant({ decision: 'approve' }), hostileValue),
            cookie: fc.constantFrom('', 'holddesk_desk=forged', `holddesk_desk=${'A'.repeat(43)}`),
            token: fc.constantFrom('', 'forged'),
          })
          .map((d): Call => ({ kind: 'desk', ...d }));
        calls = fc.oneof(...toolCalls, resourceCalls, promptCalls, deskCalls);
      });

      afterAll(async () => {
        await mcp.close();
        await store.close();
        await server.dispose();
      });

      /** Makes one call; errors are fine (hostile input), but the server must stay up and answer. */
      async function perform(call: Call): Promise<void> {
        switch (call.kind) {
          case 'tool': {
            const result = await mcp
              .callTool({ name: call.name, arguments: call.args as Record<string, unknown> })
              .catch(() => undefined);
            const ok = (result?.structuredContent as { ok?: boolean } | undefined)?.ok;
            outcomes[ok === true ? 'ok' : ok === false ? 'refused' : 'rejected'] += 1;
            return;
          }
          case 'resource':
            await mcp.readResource({ uri: call.uri }).catch(() => undefined);
            return;
          case 'prompt':
            await mcp
              .getPrompt({ name: call.name, arguments: call.args as Record<string, string> })
              .catch(() => undefined);
            return;
          case 'desk': {
            const response = await fetch(`${server.url}/desk/api/approvals/${call.id}/decision`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                cookie: call.cookie,
                'x-csrf-token': call.token,
              },
              body: JSON.stringify(call.body),
            });
            expect(response.status).toBe(401);
          }
        }
      }

      async function state() {
        const appointments = await store.db
          .selectFrom('appointments')
          .select(['id', 'status', 'status_before_cancel'])
          .execute();
        const requests = await store.db
          .selectFrom('approval_requests')
          .select(['id', 'kind', 'status', 'decided_by_account', 'decided_by_name'])
          .execute();
        const audit = await store.db
          .selectFrom('audit_log')
          .select(['action', 'actor_kind', 'actor_id', 'actor_name'])
          .execute();
        return { appointments, requests, audit };
      }

      it('leaves everything pending, whatever the assistant sends', async () => {
        await fc.assert(fc.asyncProperty(calls, perform), { numRuns: RUNS });
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        expect(outcomes.ok).toBeGreaterThan(0);
        expect(outcomes.refused + outcomes.rejected).toBeGreaterThan(0);

        const { appointments, requests, audit } = await state();
        expect(appointments.length).toBeGreaterThanOrEqual(3);
        for (const a of appointments) {
          expect(['pending_approval', 'cancel_requested'], a.id).toContain(a.status);
          if (a.status === 'cancel_requested') expect(a.status_before_cancel).toBe('pending_approval');
        }
        for (const r of requests) {
          expect(['pending', 'open'], r.id).toContain(r.status);
          expect(r.decided_by_account).toBeNull();
        }
        expect(audit.filter((e) => e.actor_kind === 'staff' || DECIDED.test(e.action))).toEqual([]);
      });

      it('after staff decide, only their decisions are on record, each with a named staff member', async () => {
        const desk = await DeskClient.signIn(server.url);
        const queue = await desk.approvals();
        const hold = queue.find((r) => r.kind === 'hold' && r.appointment?.status === 'pending_approval')!;
        const escalation = queue.find((r) => r.kind === 'escalation')!;
        expect((await desk.decide(hold.id, { decision: 'approve' })).status).toBe(200);
        expect((await desk.decide(escalation.id, { decision: 'reject' })).status).toBe(200);
        const decidedIds = new Set([hold.id, escalation.id]);
        const confirmedId = hold.appointment!.id;

        await fc.assert(fc.asyncProperty(calls, perform), { numRuns: RUNS });

        const { appointments, requests, audit } = await state();
        for (const a of appointments) {
          if (a.id === confirmedId) {
            // A caller may ask to cancel a confirmed appointment; only staff can make it so.
            expect(['confirmed', 'cancel_requested']).toContain(a.status);
            if (a.status === 'cancel_requested') expect(a.status_before_cancel).toBe('confirmed');
          } else {
            expect(['pending_approval', 'cancel_requested'], a.id).toContain(a.status);
          }
        }
        for (const r of requests) {
          if (decidedIds.has(r.id)) {
            expect(r).toMatchObject({ decided_by_account: STAFF.username, decided_by_name: STAFF.name });
          } else {
            expect(['pending', 'open'], r.id).toContain(r.status);
          }
        }
        const decisions = audit.filter((e) => DECIDED.test(e.action));
        expect(decisions.map((e) => e.action).sort()).toEqual(['escalation.declined', 'hold.approved']);
        for (const entry of decisions) {
          expect(entry).toMatchObject({
            actor_kind: 'staff',
            actor_id: STAFF.username,
            actor_name: STAFF.name,
          });
        }
        expect(await auditTrail(store.db, 'harborview', store.dialect).verify()).toMatchObject({
          intact: true,
        });
      });
    },
  );
}
