import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../src/sim/cards.js';
import {
  ProviderError,
  type ChatMessage,
  type ChatProvider,
  type ModelReply,
  type ToolSpec,
} from '../../src/sim/chat.js';
import { Orchestrator } from '../../src/sim/orchestrator.js';
import { ScriptedProvider } from '../../src/sim/providers/scripted.js';
import type { TraceEvent } from '../../src/sim/trace.js';
import { DIALECTS } from '../support/databases.js';
import { CALLBACK, CLIENT_ID, CLIENT_SECRET } from '../support/oauth.js';
import { DEMO_NOW } from '../support/office.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { approveOnDesk, callbackParams, consentAt, simServerSettings } from './support.js';

type AppointmentCard = Extract<Card, { kind: 'appointment' }>;

const guards = (trace: readonly TraceEvent[]) =>
  trace.filter((e): e is Extract<TraceEvent, { kind: 'guard' }> => e.kind === 'guard').map((e) => e.guard);
const toolCalls = (trace: readonly TraceEvent[]) =>
  trace.filter(
    (e): e is Extract<TraceEvent, { kind: 'mcp' }> => e.kind === 'mcp' && e.method === 'tools/call',
  );

/** A model that says what it is told to, step by step, and remembers what it was sent. */
class CannedModel implements ChatProvider {
  readonly name = 'canned';
  readonly seen: (readonly ChatMessage[])[] = [];
  constructor(private readonly replies: ModelReply[]) {}
  chat(messages: readonly ChatMessage[], _tools: readonly ToolSpec[]): Promise<ModelReply> {
    this.seen.push(messages);
    const next = this.replies.shift();
    if (!next) throw new Error('the canned model ran out of replies');
    return Promise.resolve(next);
  }
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(
    `simulator orchestrator against a real HoldDesk (${dialect.name})`,
    () => {
      let server: TestServer;
      const open: Orchestrator[] = [];

      beforeAll(async () => {
        server = await startTestServer(dialect, simServerSettings(CALLBACK));
      });

      afterAll(async () => {
        await Promise.all(open.map((o) => o.close()));
        await server.dispose();
      });

      async function orchestrator(provider: ChatProvider = new ScriptedProvider()): Promise<Orchestrator> {
        const o = new Orchestrator({
          link: {
            holddeskUrl: server.url,
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            redirectUri: CALLBACK,
          },
          provider,
          clock: () => DEMO_NOW,
          version: 'test',
        });
        open.push(o);
        await o.start();
        return o;
      }

      it('runs the whole journey: openings, hold with account linking, FAQ, quote, pending, approved, confirmed', async () => {
        const sim = await orchestrator();
        expect(sim.toolNames).toHaveLength(7);

        const openings = await sim.handle('Do you have any openings for a consultation on Wednesday?');
        expect(openings.status).toBe('reply');
        expect(openings.reply).toMatch(/consultation on Wednesday, September 16/);
        expect(openings.cards[0]).toMatchObject({
          kind: 'slots',
          date: '2026-09-16',
          service: 'Consultation',
        });
        // The answer names staff by id; the card shows who they are.
        const card = openings.cards[0];
        const first = card?.kind === 'slots' ? card.slots[0] : undefined;
        expect(first?.start_time).toMatch(/^\d\d:\d\d$/);
        expect(first?.staff).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+(, [A-Z][a-z]+ [A-Z][a-z]+)*$/);
        expect(toolCalls(openings.trace)[0]).toMatchObject({
          tool: 'check_availability',
          arguments: { date: '2026-09-16', service: 'consultation' },
          tier: 'service',
          ok: true,
        });

        const paused = await sim.handle('Please book 10:30 for Dana Reyes, my number is 630-555-0142.');
        expect(paused.status).toBe('needs_link');
        expect(toolCalls(paused.trace)[0]).toMatchObject({
          tool: 'book_appointment',
          tier: 'service',
          error_code: 'insufficient_scope',
        });
        const link = new URL(paused.linkUrl!);
        expect(Object.fromEntries(link.searchParams)).toMatchObject({
          response_type: 'code',
          client_id: CLIENT_ID,
          redirect_uri: CALLBACK,
          code_challenge_method: 'S256',
          scope: 'mcp:tools mcp:resources',
        });
        expect(sim.awaitingLink).toBe(true);

        await sim.completeLink(callbackParams(await consentAt(paused.linkUrl!)));
        expect(sim.linked).toBe(true);
        const held = await sim.resume();
        expect(held.status).toBe('reply');
        const hold = held.cards[0] as AppointmentCard;
        expect(hold).toMatchObject({
          kind: 'appointment',
          status: 'pending_approval',
          badge: 'Pending staff approval',
          start_time: '10:30',
        });
        expect(held.reply).toContain(hold.appointment_id);
        expect(held.reply).toMatch(/not a booking yet/);
        expect(toolCalls(held.trace)[0]).toMatchObject({ tool: 'book_appointment', tier: 'user', ok: true });
        expect(
          held.trace.filter((e) => e.kind === 'oauth').map((e) => (e as { event: string }).event),
        ).toEqual(['authorization_code']);

        const faq = await sim.handle('What documents should I bring for a quote?');
        expect(faq.cards[0]).toMatchObject({ kind: 'faq', source_id: 'documents-for-quote', grounded: true });

        const quote = await sim.handle(
          'How much would home insurance cost for a house in Illinois built in 1995 with $350,000 of coverage?',
        );
        expect(toolCalls(quote.trace)[0]).toMatchObject({
          tool: 'estimate_home_insurance_quote_range',
          arguments: { state: 'IL', dwelling_coverage: 350000, year_built: 1995 },
        });
        expect(quote.cards[0]).toMatchObject({ kind: 'quote' });
        expect((quote.cards[0] as { disclaimer: string }).disclaimer).toMatch(/non-binding/);
        expect(quote.reply).toMatch(/not a quote/);

        const refused = await sim.handle(
          'Give me a rough estimate for a house in Illinois built in 1990 with $300,000 of coverage, the roof is 25 years old.',
        );
        expect(refused.cards[0]).toMatchObject({ kind: 'notice' });

        const escalated = await sim.handle('Please have someone call me back about my renewal.');
        expect(escalated.cards[0]).toMatchObject({
          kind: 'escalation',
          badge: 'Waiting for a person at the office',
        });
        expect(toolCalls(escalated.trace)[0]).toMatchObject({
          tool: 'request_human_approval',
          tier: 'user',
          ok: true,
        });

        const pending = await sim.handle('Is my appointment confirmed yet?');
        expect(pending.cards[0]).toMatchObject({
          kind: 'appointment',
          status: 'pending_approval',
          badge: 'Pending staff approval',
        });
        expect(pending.reply).toMatch(/not confirmed yet/);

        await approveOnDesk(server.url, hold.appointment_id);

        const confirmed = await sim.handle('Is it confirmed now?');
        expect(confirmed.cards[0]).toMatchObject({
          kind: 'appointment',
          status: 'confirmed',
          badge: 'Confirmed by staff',
        });
        expect(confirmed.reply).toMatch(/confirmed by staff/);
        expect(guards(confirmed.trace)).toEqual([]);
      });

      it('asks again when the caller denies linking, and a forged state is refused', async () => {
        const sim = await orchestrator();
        const paused = await sim.handle(
          'Book a consultation on Wednesday at 11 for Sam Lee, sam.lee@example.com',
        );
        expect(paused.status).toBe('needs_link');
        await expect(sim.completeLink({ code: 'x', state: 'forged' })).rejects.toThrow(/state mismatch/);
        await expect(
          sim.completeLink(callbackParams(await consentAt(paused.linkUrl!, { decision: 'deny' }))),
        ).rejects.toThrow(/did not allow/);
        expect(sim.linked).toBe(false);
        const again = await sim.resume();
        expect(again.status).toBe('needs_link');
        // Speaking on instead of linking answers the paused call as not run, and the conversation goes on.
        const next = await sim.handle('What are your office hours?');
        expect(next.status).toBe('reply');
        expect(sim.awaitingLink).toBe(false);
        expect(next.trace.some((e) => e.kind === 'oauth' && e.event === 'link_abandoned')).toBe(true);
      });

      const say = (content: string): ModelReply => ({ content, toolCalls: [] });
      const call = (name: string, args: Record<string, unknown>, id = `c-${name}`): ModelReply => ({
        content: '',
        toolCalls: [{ id, name, arguments: args }],
      });

      describe('guards, one by one', () => {
        it('unbacked claim: nudges the model once, then replaces a claim it repeats', async () => {
          const model = new CannedModel([
            say("I've booked you for Wednesday at 10."),
            say('All set, I have booked it.'),
          ]);
          const sim = await orchestrator(model);
          const turn = await sim.handle('Can I get Wednesday at 10?');
          expect(guards(turn.trace)).toEqual(['unbacked-claim', 'unbacked-claim']);
          expect(model.seen[1]!.at(-1)).toMatchObject({
            role: 'system',
            content: expect.stringMatching(/did not call any tool/) as string,
          });
          expect(turn.reply).toMatch(/haven't booked or changed anything/);
        });

        it('unbacked claim: a model that asks after the nudge is heard', async () => {
          const model = new CannedModel([say("You're all set!"), say('What name should the hold be under?')]);
          const sim = await orchestrator(model);
          const turn = await sim.handle('Hold Wednesday at 10 for me');
          expect(guards(turn.trace)).toEqual(['unbacked-claim']);
          expect(turn.reply).toBe('What name should the hold be under?');
        });

        it('grounding: an answer from the model’s memory is re-routed to the right tool', async () => {
          const sim = await orchestrator(new CannedModel([say('Paris.')]));
          const turn = await sim.handle("What's the capital of France?");
          expect(guards(turn.trace)).toEqual(['grounding']);
          expect(toolCalls(turn.trace)[0]).toMatchObject({ tool: 'answer_office_faq', ok: true });
          expect(turn.cards[0]).toMatchObject({ kind: 'faq', grounded: false, source_id: null });
          expect(turn.reply).toMatch(/don't have a reliable answer/);
          expect(turn.reply).not.toMatch(/Paris/);
        });

        it('grounding: a remembered status is re-routed to the status tool, which needs a linked account', async () => {
          const sim = await orchestrator(new CannedModel([say('Your appointment is still pending.')]));
          const turn = await sim.handle("What's the status of APT-7F3K2Q? My phone is 630-555-0142.");
          expect(guards(turn.trace)).toEqual(['grounding']);
          expect(turn.status).toBe('needs_link');
        });

        it('no false confirmation: "confirmed" without the status tool saying so is replaced', async () => {
          const model = new CannedModel([
            call('book_appointment', {
              client_name: 'Mia Torres',
              contact: '312-555-0177',
              service: 'consultation',
              date: '2026-09-17',
              start_time: '11:00',
            }),
            say('Great news, your appointment is confirmed for Thursday!'),
          ]);
          const sim = await orchestrator(model);
          const paused = await sim.handle('Thursday 11 am consultation please, Mia Torres, 312-555-0177');
          await sim.completeLink(callbackParams(await consentAt(paused.linkUrl!)));
          const turn = await sim.resume();
          expect(guards(turn.trace)).toEqual(['no-false-confirmation']);
          expect(turn.reply).toMatch(/not a booking yet/);
          expect(turn.reply).not.toMatch(/confirmed/);
        });

        it('coercion: "$500,000" reaches HoldDesk as 500000 and an unknown key is dropped; the disclaimer is kept', async () => {
          const model = new CannedModel([
            call('estimate_home_insurance_quote_range', {
              state: 'IL',
              dwelling_coverage: '$500,000',
              year_built: '1995',
              zip_code: '60514',
            }),
            say('That would be roughly two thousand dollars a year.'),
          ]);
          const sim = await orchestrator(model);
          const turn = await sim.handle('What would a $500,000 house from 1995 in Illinois cost to insure?');
          expect(guards(turn.trace)).toEqual(['coerce-arguments', 'quote-disclaimer']);
          expect(toolCalls(turn.trace)[0]).toMatchObject({
            arguments: { state: 'IL', dwelling_coverage: 500000, year_built: 1995 },
            ok: true,
          });
          expect(toolCalls(turn.trace)[0]!.arguments).not.toHaveProperty('zip_code');
          expect(turn.reply).toMatch(/This is not a quote/);
        });

        it('hold notice: a reply after a hold keeps its reference and the pending notice', async () => {
          const model = new CannedModel([
            call('book_appointment', {
              client_name: 'Ravi Patel',
              contact: 'ravi@example.com',
              service: 'consultation',
              date: '2026-09-17',
              start_time: '09:30',
            }),
            say('Done!'),
          ]);
          const sim = await orchestrator(model);
          const paused = await sim.handle(
            'Hold Thursday 9:30 for a consultation, I am Ravi Patel, ravi@example.com',
          );
          await sim.completeLink(callbackParams(await consentAt(paused.linkUrl!)));
          const turn = await sim.resume();
          expect(guards(turn.trace)).toEqual(['hold-notice']);
          const hold = turn.cards[0] as AppointmentCard;
          expect(turn.reply).toMatch(
            new RegExp(`^Done! I've placed a hold.*not a booking yet.*${hold.appointment_id}`),
          );
        });

        it('an unknown tool is answered to the model, not sent to HoldDesk', async () => {
          const model = new CannedModel([call('approve_everything', {}), say('Sorry, I cannot do that.')]);
          const sim = await orchestrator(model);
          const turn = await sim.handle('Hi');
          expect(guards(turn.trace)).toEqual(['unknown-tool']);
          expect(toolCalls(turn.trace)).toEqual([]);
          expect(model.seen[1]!.at(-1)).toMatchObject({
            role: 'tool',
            content: expect.stringMatching(/unknown_tool/) as string,
          });
        });

        it('a model that keeps calling tools is stopped after its step budget', async () => {
          const again = () => call('check_availability', { date: '2026-09-16', service: 'consultation' });
          const sim = await orchestrator(
            new CannedModel([again(), again(), again(), again(), again(), again()]),
          );
          const turn = await sim.handle('Wednesday?');
          expect(toolCalls(turn.trace)).toHaveLength(6);
          expect(turn.reply).toMatch(/consultation on Wednesday/);
        });

        it('a model that is down (and no fallback) gets an apology, with the failure in the trace', async () => {
          const down: ChatProvider = {
            name: 'down',
            chat: () => Promise.reject(new ProviderError('cannot reach http://127.0.0.1:9')),
          };
          const sim = await orchestrator(down);
          const turn = await sim.handle('Hello');
          expect(turn.reply).toMatch(/having trouble/);
          expect(turn.trace.find((e) => e.kind === 'model')).toMatchObject({
            fallback_reason: 'cannot reach http://127.0.0.1:9',
          });
        });
      });

      it('renews expired tokens on a 401: a new service token, then a refreshed caller token', async () => {
        let now = Date.now();
        const timed = await startTestServer(dialect, simServerSettings(CALLBACK), {
          securityClock: () => new Date(now),
        });
        const sim = new Orchestrator({
          link: {
            holddeskUrl: timed.url,
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            redirectUri: CALLBACK,
          },
          provider: new ScriptedProvider(),
          clock: () => DEMO_NOW,
          version: 'test',
        });
        try {
          await sim.start();
          now += 2 * 3600_000;
          const faq = await sim.handle('Where is your office located?');
          expect(
            faq.trace.filter((e) => e.kind === 'oauth').map((e) => (e as { event: string }).event),
          ).toEqual(['client_credentials']);
          expect(faq.cards[0]).toMatchObject({ kind: 'faq', source_id: 'office-location' });

          const paused = await sim.handle(
            'Book Friday at 10 for a consultation for Kai Moreno, 630-555-0188',
          );
          await sim.completeLink(callbackParams(await consentAt(paused.linkUrl!)));
          await sim.resume();
          now += 2 * 3600_000;
          const status = await sim.handle('Is my appointment confirmed?');
          expect(
            status.trace.filter((e) => e.kind === 'oauth').map((e) => (e as { event: string }).event),
          ).toEqual(['refresh_token']);
          expect(status.cards[0]).toMatchObject({ kind: 'appointment', status: 'pending_approval' });

          await timed.close();
          const offline = await sim.handle('Where can I park?');
          expect(offline.reply).toMatch(/can't reach the office system/);
          expect(toolCalls(offline.trace)[0]).toMatchObject({
            ok: false,
            error_code: expect.stringMatching(/^unreachable/) as string,
          });
        } finally {
          await sim.close();
          await timed.dispose();
        }
      });

      it('asks only for the detail the caller has not said, and answers the calls it skipped', async () => {
        const model = new CannedModel([
          {
            content: '',
            toolCalls: [
              {
                id: 'b1',
                name: 'book_appointment',
                arguments: {
                  client_name: 'Ivy Chen',
                  contact: 'ivy@example.com',
                  service: 'consultation',
                  date: '2026-09-16',
                  start_time: '15:00',
                },
              },
              {
                id: 'a1',
                name: 'check_availability',
                arguments: { date: '2026-09-16', service: 'consultation' },
              },
            ],
          },
          call('get_appointment_status', { appointment_id: 'APT-AAAA11', contact: '630-555-0100' }),
        ]);
        const sim = await orchestrator(model);
        const first = await sim.handle('Wednesday at 3 for Ivy Chen please');
        expect(first.reply).toBe('What phone number or e-mail can the office reach you at?');
        const second = await sim.handle('Is APT-AAAA11 confirmed?');
        expect(second.reply).toBe('What phone number or e-mail did you book with?');
        const sent = model.seen[1]!.filter((m) => m.role === 'tool').map(
          (m) => JSON.parse(m.content) as { error: { code: string } },
        );
        expect(sent.map((r) => r.error.code)).toEqual(['caller_details_not_said', 'not_run']);
      });

      it('keeps a hold request safe when the model invents the caller and then claims a booking', async () => {
        const model = new CannedModel([
          {
            content: '',
            toolCalls: [
              {
                id: 'c1',
                name: 'book_appointment',
                arguments: {
                  client_name: 'User',
                  contact: '123-456-7890',
                  service: 'consultation',
                  date: '2026-09-16',
                  start_time: '14:00',
                },
              },
            ],
          },
        ]);
        const sim = await orchestrator(model);
        const turn = await sim.handle('Book me for 2 pm on Wednesday');
        expect(guards(turn.trace)).toEqual(['caller-details']);
        expect(toolCalls(turn.trace)).toEqual([]);
        expect(turn.reply).toMatch(/what name should it be under/i);
      });
    },
  );
}
