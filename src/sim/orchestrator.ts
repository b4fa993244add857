import { utcToZoned } from '../core/local-time.js';
import { cardFor, type Card } from './cards.js';
import {
  ProviderError,
  type ChatMessage,
  type ChatProvider,
  type JsonSchema,
  type ModelReply,
  type ToolCall,
  type ToolSpec,
} from './chat.js';
import {
  claimsAnAction,
  claimsConfirmation,
  coerceArguments,
  keepsHoldNotice,
  keepsQuoteDisclaimer,
  unsaidCallerDetails,
} from './guards.js';
import { READ_ONLY_TOOLS } from './intent-router.js';
import { McpLink, type LinkOptions } from './mcp-link.js';
import { buildSystemPrompt, type SessionFacts } from './prompt.js';
import { routeConversation } from './providers/scripted.js';
import type { TraceEvent } from './trace.js';

/**
 * One caller's conversation: each utterance runs the model/tool loop until a short spoken reply.
 * Tool calls go to HoldDesk over MCP with the session's token; when a user-level tool answers
 * `insufficient_scope` the turn pauses until the caller links their account, and the paused call is
 * then retried with the caller's token. The guards run around every step.
 */
export interface TurnResult {
  readonly status: 'reply' | 'needs_link';
  readonly reply: string;
  readonly cards: readonly Card[];
  readonly trace: readonly TraceEvent[];
  /** With `needs_link`: HoldDesk's consent page, to open in a popup. */
  readonly linkUrl?: string;
}

export interface OrchestratorOptions {
  readonly link: Omit<LinkOptions, 'onEvent'>;
  readonly provider: ChatProvider;
  readonly clock: () => Date;
  readonly version: string;
  /** Model steps per utterance before giving up (tool rounds, nudges). */
  readonly maxSteps?: number;
}

interface ToolRun {
  readonly name: string;
  readonly result: Readonly<Record<string, unknown>>;
}

interface Turn {
  readonly utterance: string;
  readonly trace: TraceEvent[];
  readonly cards: Card[];
  readonly runs: ToolRun[];
  step: number;
  nudged: boolean;
}

type Execution =
  | { readonly kind: 'result'; readonly content: string }
  | { readonly kind: 'paused' }
  | { readonly kind: 'ask'; readonly reply: string; readonly content: string };

const PROPOSING_TOOLS = new Set(['book_appointment', 'cancel_appointment', 'request_human_approval']);
const DEFAULT_MAX_STEPS = 6;
/** Messages of history sent to the model besides the system prompt; small models lose track beyond. */
const HISTORY_MESSAGES = 24;

const NUDGE =
  'You did not call any tool in this turn, so nothing was booked, held, cancelled or confirmed. ' +
  'Call the right tool now, or tell the caller what you still need from them. Do not claim an action you did not take.';
const UNBACKED_REPLACEMENT =
  "I haven't booked or changed anything yet. I can check openings and place a hold once I have the day, the time, your name and a phone number or e-mail.";
const NOT_CONFIRMED = "It isn't confirmed yet: a staff member has to approve it first.";
const QUOTE_DISCLAIMER = 'This is not a quote; a licensed agent has to review it.';
const UNREACHABLE = {
  ok: false,
  error: { code: 'unavailable', message: 'HoldDesk could not be reached.' },
  spoken_summary: "I can't reach the office system right now. Please try again in a moment.",
};

function askFor(tool: string, fields: readonly string[]): string {
  if (tool !== 'book_appointment') return 'What phone number or e-mail did you book with?';
  if (fields.length === 2)
    return 'Before I hold a time: what name should it be under, and what phone number or e-mail can the office reach you at?';
  return fields[0] === 'client_name'
    ? 'What name should I put the hold under?'
    : 'What phone number or e-mail can the office reach you at?';
}

/** JSON Schema as published by `tools/list`, without the meta keys models do not need. */
function forModel(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _schema, ...rest } = schema;
  return rest;
}

export class Orchestrator {
  private readonly link: McpLink;
  private tools: ToolSpec[] = [];
  private facts: Omit<SessionFacts, 'today'> | undefined;
  private readonly messages: ChatMessage[] = [];
  private current: Turn | undefined;
  private buffered: TraceEvent[] = [];
  private paused: { readonly turn: Turn; readonly calls: readonly ToolCall[] } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private callIds = 0;

  constructor(private readonly options: OrchestratorOptions) {
    this.link = new McpLink({
      ...options.link,
      onEvent: (event, detail) => this.emit({ kind: 'oauth', event, detail }),
    });
  }

  get providerName(): string {
    return this.options.provider.name;
  }

  get awaitingLink(): boolean {
    return this.paused !== undefined;
  }

  get linked(): boolean {
    return this.link.tier === 'user';
  }

  private emit(event: TraceEvent): void {
    (this.current?.trace ?? this.buffered).push(event);
  }

  /** One thing at a time per conversation: the page, the popup and a script may all call in. */
  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Session start: Tier 1 token, MCP connection, `tools/list` as function schemas, the office profile. */
  start(): Promise<readonly TraceEvent[]> {
    return this.serialize(async () => {
      let started = performance.now();
      const tools = await this.link.connect(this.options.version);
      this.emit({
        kind: 'mcp',
        method: 'initialize + tools/list',
        tier: 'service',
        latency_ms: Math.round(performance.now() - started),
        ok: true,
      });
      this.tools = tools.map((t) => ({
        name: t.name,
        description: t.description ?? t.title ?? t.name,
        parameters: forModel(t.inputSchema),
      }));
      started = performance.now();
      const info = await this.link.officeInfo();
      this.emit({
        kind: 'mcp',
        method: 'resources/read office://info',
        tier: 'service',
        latency_ms: Math.round(performance.now() - started),
        ok: true,
      });
      const staff = Array.isArray(info.staff) ? (info.staff as { id: string; name: string }[]) : [];
      this.facts = {
        officeName: typeof info.name === 'string' ? info.name : 'the office',
        timezone: typeof info.timezone === 'string' ? info.timezone : 'UTC',
        staff: staff.map(({ id, name }) => ({ id, name })),
      };
      return this.drain();
    });
  }

  get officeName(): string {
    return this.facts?.officeName ?? 'the office';
  }

  get toolNames(): readonly string[] {
    return this.tools.map((t) => t.name);
  }

  private drain(): TraceEvent[] {
    const events = this.buffered;
    this.buffered = [];
    return events;
  }

  private newTurn(utterance: string): Turn {
    const turn: Turn = { utterance, trace: this.drain(), cards: [], runs: [], step: 0, nudged: false };
    this.current = turn;
    return turn;
  }

  handle(utterance: string): Promise<TurnResult> {
    return this.serialize(async () => {
      if (!this.facts) throw new Error('start() the orchestrator before the first utterance');
      const turn = this.newTurn(utterance);
      if (this.paused) this.abandonPause();
      this.messages.push({ role: 'user', content: utterance });
      try {
        return await this.run(turn);
      } finally {
        this.current = undefined;
      }
    });
  }

  /** The caller spoke again instead of linking: the paused calls are answered as not run. */
  private abandonPause(): void {
    for (const call of this.paused!.calls) {
      this.messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: JSON.stringify({
          ok: false,
          error: { code: 'insufficient_scope', message: 'The caller did not link their account.' },
        }),
      });
    }
    this.messages.push({
      role: 'assistant',
      content: 'I need you to link your account before I can do that.',
    });
    this.emit({ kind: 'oauth', event: 'link_abandoned', detail: 'the caller went on without linking' });
    this.paused = undefined;
  }

  expectsLink(state: string | undefined): boolean {
    return this.link.expects(state);
  }

  /** The redirect back from HoldDesk's consent page (state check, then code exchange with PKCE). */
  completeLink(params: { code?: string; state?: string; error?: string }): Promise<void> {
    return this.serialize(() => this.link.completeLinking(params));
  }

  /** Retries the paused tool call with the caller's token and finishes the turn. */
  resume(): Promise<TurnResult> {
    return this.serialize(async () => {
      const paused = this.paused;
      if (!paused) throw new Error('no turn is waiting for account linking');
      if (!this.linked) {
        return {
          status: 'needs_link',
          reply: 'Please link your account first.',
          cards: [],
          trace: this.drain(),
          linkUrl: await this.link.beginLinking(),
        };
      }
      this.paused = undefined;
      this.current = paused.turn;
      paused.turn.trace.length = 0;
      paused.turn.trace.push(...this.drain());
      paused.turn.cards.length = 0;
      try {
        const stop = await this.runCalls(paused.calls, paused.turn);
        return stop ?? (await this.run(paused.turn));
      } finally {
        this.current = undefined;
      }
    });
  }

  async close(): Promise<void> {
    await this.link.close();
  }

  private conversation(): ChatMessage[] {
    const facts = { ...this.facts!, today: utcToZoned(this.options.clock(), this.facts!.timezone).date };
    let start = Math.max(0, this.messages.length - HISTORY_MESSAGES);
    // Start at a caller's message, never inside a tool exchange.
    while (start > 0 && this.messages[start]!.role !== 'user') start -= 1;
    return [
      { role: 'system', content: buildSystemPrompt(facts, this.link.instructions) },
      ...this.messages.slice(start),
    ];
  }

  private async modelStep(turn: Turn): Promise<ModelReply> {
    turn.step += 1;
    const started = performance.now();
    let reply: ModelReply;
    try {
      reply = await this.options.provider.chat(this.conversation(), this.tools);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      reply = {
        content: "Sorry, I'm having trouble right now. Please try again in a moment.",
        toolCalls: [],
        fallbackReason: error.message,
      };
    }
    this.emit({
      kind: 'model',
      provider: reply.answeredBy ?? this.options.provider.name,
      step: turn.step,
      latency_ms: Math.round(performance.now() - started),
      tool_calls: reply.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
      content: reply.content,
      ...(reply.fallbackReason ? { fallback_reason: reply.fallbackReason } : {}),
    });
    return reply;
  }

  private async run(turn: Turn): Promise<TurnResult> {
    const maxSteps = this.options.maxSteps ?? DEFAULT_MAX_STEPS;
    while (turn.step < maxSteps) {
      const reply = await this.modelStep(turn);
      if (reply.toolCalls.length > 0) {
        this.messages.push({ role: 'assistant', content: reply.content, toolCalls: reply.toolCalls });
        const stop = await this.runCalls(reply.toolCalls, turn);
        if (stop) return stop;
        continue;
      }
      const reviewed = await this.review(reply.content, turn);
      if (reviewed === 'again') continue;
      return reviewed;
    }
    return this.finish(
      turn,
      this.summaries(turn) || "Sorry, I couldn't finish that. Could you say it another way?",
    );
  }

  /** Runs tool calls in order; returns the turn's result when one of them ends the turn early. */
  private async runCalls(calls: readonly ToolCall[], turn: Turn): Promise<TurnResult | undefined> {
    for (const [index, call] of calls.entries()) {
      const execution = await this.execute(call, turn);
      if (execution.kind === 'paused') {
        this.paused = { turn, calls: calls.slice(index) };
        return {
          status: 'needs_link',
          reply:
            'I need you to link your account before I can do that for you. I opened the sign-in for you.',
          cards: turn.cards,
          trace: turn.trace,
          linkUrl: await this.link.beginLinking(),
        };
      }
      this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: execution.content });
      if (execution.kind === 'ask') {
        for (const skipped of calls.slice(index + 1)) {
          this.messages.push({
            role: 'tool',
            toolCallId: skipped.id,
            name: skipped.name,
            content: JSON.stringify({
              ok: false,
              error: { code: 'not_run', message: 'Not run: waiting for the caller.' },
            }),
          });
        }
        return this.finish(turn, execution.reply);
      }
    }
    return undefined;
  }

  private callerSaid(): string[] {
    return this.messages.filter((m) => m.role === 'user').map((m) => m.content);
  }

  private async execute(call: ToolCall, turn: Turn): Promise<Execution> {
    const spec = this.tools.find((t) => t.name === call.name);
    if (!spec) {
      this.emit({ kind: 'guard', guard: 'unknown-tool', detail: `${call.name} is not a HoldDesk tool` });
      return {
        kind: 'result',
        content: JSON.stringify({
          ok: false,
          error: {
            code: 'unknown_tool',
            message: `There is no tool named ${call.name}. Use one of: ${this.toolNames.join(', ')}.`,
          },
        }),
      };
    }
    const coerced = coerceArguments(call.arguments, spec.parameters);
    if (coerced.changes.length > 0) {
      this.emit({
        kind: 'guard',
        guard: 'coerce-arguments',
        detail: `${call.name}: ${coerced.changes.join('; ')}`,
      });
    }
    const unsaid = unsaidCallerDetails(call.name, coerced.value, this.callerSaid());
    if (unsaid.length > 0) {
      this.emit({
        kind: 'guard',
        guard: 'caller-details',
        detail: `${call.name}: ${unsaid.join(' and ')} not said by the caller; the call was not sent to HoldDesk`,
      });
      return {
        kind: 'ask',
        reply: askFor(call.name, unsaid),
        content: JSON.stringify({
          ok: false,
          error: {
            code: 'caller_details_not_said',
            message: `Ask the caller for ${unsaid.join(' and ')}; use only what they say.`,
          },
        }),
      };
    }
    let result: Record<string, unknown>;
    try {
      const outcome = await this.link.callTool(call.name, coerced.value);
      result = outcome.result;
      const error = result.error as { code?: string } | undefined;
      this.emit({
        kind: 'mcp',
        method: 'tools/call',
        tool: call.name,
        arguments: coerced.value,
        tier: outcome.tier,
        latency_ms: outcome.latencyMs,
        ok: result.ok === true,
        ...(error?.code ? { error_code: error.code } : {}),
      });
      if (error?.code === 'insufficient_scope') return { kind: 'paused' };
    } catch (error) {
      this.emit({
        kind: 'mcp',
        method: 'tools/call',
        tool: call.name,
        arguments: coerced.value,
        tier: this.link.tier ?? 'service',
        latency_ms: 0,
        ok: false,
        error_code: `unreachable: ${(error as Error).message}`,
      });
      result = UNREACHABLE;
    }
    const card = cardFor(call.name, result);
    if (card) turn.cards.push(card);
    turn.runs.push({ name: call.name, result });
    return { kind: 'result', content: JSON.stringify(result) };
  }

  private summaries(turn: Turn): string {
    return turn.runs
      .map((r) => r.result.spoken_summary)
      .filter((s): s is string => typeof s === 'string')
      .join(' ');
  }

  /** The guards on a reply the model wants to say. `again`: the model gets one more step. */
  private async review(content: string, turn: Turn): Promise<TurnResult | 'again'> {
    let text = content.trim();
    const acted = turn.runs.some(
      (r) => (PROPOSING_TOOLS.has(r.name) || r.name === 'get_appointment_status') && r.result.ok === true,
    );
    if (claimsAnAction(text) && !acted) {
      if (!turn.nudged) {
        turn.nudged = true;
        this.emit({
          kind: 'guard',
          guard: 'unbacked-claim',
          detail: `no tool backs "${text}"; the model was nudged once`,
        });
        this.messages.push({ role: 'assistant', content: text }, { role: 'system', content: NUDGE });
        return 'again';
      }
      this.emit({
        kind: 'guard',
        guard: 'unbacked-claim',
        detail: `still no tool after the nudge; "${text}" was replaced`,
      });
      return this.finish(turn, UNBACKED_REPLACEMENT);
    }

    if (turn.runs.length === 0) {
      const decision = routeConversation(this.conversation());
      if (decision.kind === 'tool' && READ_ONLY_TOOLS.has(decision.name)) {
        this.emit({
          kind: 'guard',
          guard: 'grounding',
          detail: `answered without a tool ("${text}"); re-routed to ${decision.name}`,
        });
        const call: ToolCall = {
          id: `grounding-${(this.callIds += 1)}`,
          name: decision.name,
          arguments: decision.arguments,
        };
        this.messages.push({ role: 'assistant', content: '', toolCalls: [call] });
        const stop = await this.runCalls([call], turn);
        if (stop) return stop;
        text = this.summaries(turn);
      }
    }

    const confirmedByStatus = turn.runs.some(
      (r) => r.name === 'get_appointment_status' && r.result.status === 'confirmed',
    );
    if (claimsConfirmation(text) && !confirmedByStatus) {
      this.emit({
        kind: 'guard',
        guard: 'no-false-confirmation',
        detail: `"${text}" claims a confirmation no status look-up returned`,
      });
      text = this.summaries(turn) || NOT_CONFIRMED;
      if (claimsConfirmation(text)) text = NOT_CONFIRMED;
    }
    for (const run of turn.runs) {
      if (run.name === 'book_appointment' && run.result.ok === true) {
        const id = String(run.result.appointment_id);
        if (!keepsHoldNotice(text, id)) {
          this.emit({
            kind: 'guard',
            guard: 'hold-notice',
            detail: `the reply lacked the pending notice or ${id}; the hold's summary was added`,
          });
          text = `${text} ${String(run.result.spoken_summary)}`.trim();
        }
      }
      if (
        run.name === 'estimate_home_insurance_quote_range' &&
        run.result.ok === true &&
        !keepsQuoteDisclaimer(text)
      ) {
        this.emit({
          kind: 'guard',
          guard: 'quote-disclaimer',
          detail: 'the reply lacked the non-binding notice; it was added',
        });
        text = `${text} ${QUOTE_DISCLAIMER}`.trim();
      }
    }
    return this.finish(turn, text || this.summaries(turn) || 'Sorry, could you say that again?');
  }

  private finish(turn: Turn, reply: string): TurnResult {
    this.messages.push({ role: 'assistant', content: reply });
    return { status: 'reply', reply, cards: turn.cards, trace: turn.trace };
  }
}
