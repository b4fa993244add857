import { z } from 'zod';
import { refusal, success, type Result } from '../result.js';
import { findSensitiveIn } from '../sensitive.js';

/**
 * A call flow: how to get through one number's phone menu, as a JSON array of steps run in order.
 *
 * ```json
 * [
 *   { "expect": "for billing", "press": "2" },
 *   { "expect": "account number", "press": "12345678#", "timeout_seconds": 20 },
 *   { "wait": 2 },
 *   { "expect": "in a few words", "say": "representative", "note": "speech menu" }
 * ]
 * ```
 *
 * - `expect` (optional, 1–200 characters): wait until a menu prompt containing these words is heard
 *   (case, punctuation and spacing ignored). A step without `expect` runs right after the step
 *   before it (at the start of the call for the first step).
 * - exactly one action: `press` (DTMF digits `0-9 * # A-D`, 1–32 of them), `wait` (seconds, 0–600)
 *   or `say` (1–200 characters, spoken into the call).
 * - `timeout_seconds` (1–600, default 30): how long to wait for `expect`; when it passes the flow is
 *   abandoned and the call continues as an exploration call.
 * - `note` (optional): free text for people.
 *
 * Hold music and a person answering are recognised by listening, so a flow ends where the menu ends.
 */
export const DTMF_DIGITS = /^[0-9*#A-D]{1,32}$/;
export const DEFAULT_EXPECT_TIMEOUT_SECONDS = 30;
export const MAX_FLOW_STEPS = 50;

const ACTIONS = ['press', 'wait', 'say'] as const;

export const FlowStepSchema = z
  .strictObject({
    expect: z.string().trim().min(1).max(200).optional(),
    press: z.string().regex(DTMF_DIGITS, 'press takes 1-32 DTMF digits: 0-9 * # A-D').optional(),
    wait: z.number().min(0).max(600).optional(),
    say: z.string().trim().min(1).max(200).optional(),
    timeout_seconds: z.number().int().min(1).max(600).optional(),
    note: z.string().max(500).optional(),
  })
  .refine((step) => ACTIONS.filter((action) => step[action] !== undefined).length === 1, {
    message: 'give exactly one of press, wait or say',
  });

export type FlowStep = z.infer<typeof FlowStepSchema>;

export const FlowStepsSchema = z.array(FlowStepSchema).min(1).max(MAX_FLOW_STEPS);

export type FlowRefusalCode = 'invalid_call_flow' | 'sensitive_number';

/** Steps from a JSON document (a string) or an already parsed value, or the first problem found. */
export function parseFlowSteps(input: unknown): Result<FlowStep[], FlowRefusalCode> {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return refusal('invalid_call_flow', 'steps_json is not valid JSON.');
    }
  }
  const parsed = FlowStepsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [index, field] = issue.path;
    const where =
      typeof index === 'number'
        ? `step ${index + 1}${field === undefined ? '' : ` (${String(field)})`}: `
        : '';
    return refusal('invalid_call_flow', `The call flow is not valid: ${where}${issue.message}.`);
  }
  // Flows are stored and reused: an account PIN is fine, a card or social security number is not.
  const sensitive = findSensitiveIn(parsed.data, 'steps');
  if (sensitive) {
    return refusal('sensitive_number', 'Call flows must not contain card or social security numbers.', {
      path: sensitive.path,
    });
  }
  return success(parsed.data);
}

/** Lowercase words separated by single spaces: what `expect` and prompts are compared as. */
export function normalisePrompt(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[*]/g, ' star ')
    .replace(/#/g, ' pound ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function promptMatches(expect: string, prompt: string): boolean {
  const wanted = normalisePrompt(expect);
  return wanted !== '' && ` ${normalisePrompt(prompt)} `.includes(` ${wanted} `);
}

export type FlowAction =
  | { readonly kind: 'press'; readonly digits: string; readonly step: number }
  | { readonly kind: 'wait'; readonly seconds: number; readonly step: number }
  | { readonly kind: 'say'; readonly text: string; readonly step: number };

function actionOf(step: FlowStep, index: number): FlowAction {
  if (step.press !== undefined) return { kind: 'press', digits: step.press, step: index };
  if (step.say !== undefined) return { kind: 'say', text: step.say, step: index };
  return { kind: 'wait', seconds: step.wait ?? 0, step: index };
}

/** Where a call is in its flow: the next step to run, and what it is waiting for. */
export interface FlowPosition {
  readonly next: number;
  /** The prompt the next step waits for, with its timeout; undefined when the flow is done. */
  readonly awaiting: { readonly expect: string; readonly timeout_seconds: number } | undefined;
}

/** Runs steps from `from` until one waits for a prompt (or the flow ends). */
function runFrom(
  steps: readonly FlowStep[],
  from: number,
): { actions: FlowAction[]; position: FlowPosition } {
  const actions: FlowAction[] = [];
  let index = from;
  while (index < steps.length && steps[index]!.expect === undefined) {
    actions.push(actionOf(steps[index]!, index));
    index += 1;
  }
  const waiting = steps[index];
  return {
    actions,
    position: {
      next: index,
      awaiting: waiting?.expect
        ? {
            expect: waiting.expect,
            timeout_seconds: waiting.timeout_seconds ?? DEFAULT_EXPECT_TIMEOUT_SECONDS,
          }
        : undefined,
    },
  };
}

/** The actions to run when the call is answered: the leading steps that expect nothing. */
export function startFlow(steps: readonly FlowStep[]): { actions: FlowAction[]; position: FlowPosition } {
  return runFrom(steps, 0);
}

/**
 * A prompt was heard. If it is the one the next step waits for, that step runs, followed by the
 * steps chained to it; any other prompt (a greeting, "calls may be recorded") changes nothing.
 */
export function advanceFlow(
  steps: readonly FlowStep[],
  position: FlowPosition,
  prompt: string,
): { actions: FlowAction[]; position: FlowPosition } {
  const step = steps[position.next];
  if (!step?.expect || !promptMatches(step.expect, prompt)) return { actions: [], position };
  const rest = runFrom(steps, position.next + 1);
  return { actions: [actionOf(step, position.next), ...rest.actions], position: rest.position };
}

/** What an exploration call heard and did, in order, as recorded on its event log. */
export type ExplorationEntry =
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'press'; readonly digits: string }
  | { readonly kind: 'say'; readonly text: string }
  /** The menu is over: hold music or a person. */
  | { readonly kind: 'reached'; readonly what: 'hold' | 'human' };

export type LearnRefusalCode = 'nothing_to_learn' | 'exploration_incomplete';

const MAX_EXPECT_WORDS = 8;

function sentences(prompt: string): string[] {
  return prompt
    .split(/[.!?;:\n]+/)
    .map(normalisePrompt)
    .filter((s) => s !== '');
}

/**
 * The part of a prompt worth waiting for before an action: the sentence that names the digits or
 * words sent ("for billing press 2"), else the last sentence (the question asked just before the
 * caller answered), cut to its last few words.
 */
export function expectFor(prompt: string, sent: string): string | undefined {
  const all = sentences(prompt);
  const token = normalisePrompt(sent);
  const naming = token === '' ? undefined : all.find((s) => ` ${s} `.includes(` ${token} `));
  const chosen = naming ?? all.at(-1);
  return chosen?.split(' ').slice(-MAX_EXPECT_WORDS).join(' ');
}

type ActionEntry = Extract<ExplorationEntry, { kind: 'press' | 'say' }>;

function appendAction(steps: FlowStep[], entry: ActionEntry, prompt: string | undefined): void {
  const previous = steps.at(-1);
  const joined = entry.kind === 'press' && previous?.press !== undefined ? previous.press + entry.digits : '';
  if (prompt === undefined && DTMF_DIGITS.test(joined)) {
    // Digits typed one key at a time after the same prompt are one entry ("1", "2", "3#" -> "123#").
    steps[steps.length - 1] = { ...previous, press: joined };
    return;
  }
  const action = entry.kind === 'press' ? { press: entry.digits } : { say: entry.text };
  const expect =
    prompt === undefined ? undefined : expectFor(prompt, entry.kind === 'press' ? entry.digits : entry.text);
  steps.push(expect === undefined ? action : { expect, ...action });
}

/** Keeps a person's notes and timeouts on the steps of the old flow that the new path still takes. */
function keepAnnotations(learned: readonly FlowStep[], existing: readonly FlowStep[]): FlowStep[] {
  return learned.map((step) => {
    const same = existing.find(
      (old) =>
        old.press === step.press &&
        old.say === step.say &&
        old.wait === step.wait &&
        (old.expect === undefined) === (step.expect === undefined) &&
        (old.expect === undefined ||
          promptMatches(old.expect, step.expect!) ||
          promptMatches(step.expect!, old.expect)),
    );
    if (!same) return step;
    return {
      ...step,
      ...(same.expect === undefined ? {} : { expect: same.expect }),
      ...(same.timeout_seconds === undefined ? {} : { timeout_seconds: same.timeout_seconds }),
      ...(same.note === undefined ? {} : { note: same.note }),
    };
  });
}

/**
 * Turns what an exploration call heard and sent into flow steps: each action becomes a step that
 * waits for the prompt heard just before it. Only the path up to hold music or a person counts; a
 * call that never got there proves nothing about the path. Given the number's existing flow, the
 * observed path replaces it, keeping the notes, timeouts and wording of the steps still taken.
 */
export function learnFlow(
  entries: readonly ExplorationEntry[],
  existing?: readonly FlowStep[],
): Result<FlowStep[], LearnRefusalCode> {
  const reached = entries.findIndex((e) => e.kind === 'reached');
  if (reached === -1) {
    return refusal(
      'exploration_incomplete',
      'The call ended before it reached hold music or a person, so its path through the menu is not proven.',
    );
  }
  const steps: FlowStep[] = [];
  let prompt: string | undefined;
  for (const entry of entries.slice(0, reached)) {
    if (entry.kind === 'prompt') {
      prompt = entry.text;
    } else if (entry.kind === 'press' || entry.kind === 'say') {
      if (steps.length >= MAX_FLOW_STEPS) break;
      appendAction(steps, entry, prompt);
      prompt = undefined;
    }
  }
  if (steps.length === 0) {
    return refusal(
      'nothing_to_learn',
      'The call pressed and said nothing before it reached the queue, so there is no menu path to learn.',
    );
  }
  return success(existing ? keepAnnotations(steps, existing) : steps);
}
