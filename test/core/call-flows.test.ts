import { describe, expect, it } from 'vitest';
import {
  advanceFlow,
  DEFAULT_EXPECT_TIMEOUT_SECONDS,
  expectFor,
  learnFlow,
  normalisePrompt,
  parseFlowSteps,
  promptMatches,
  startFlow,
  type ExplorationEntry,
  type FlowStep,
} from '../../src/core/calls/call-flows.js';

describe('call flows › the step schema', () => {
  it('accepts steps from a JSON string or a parsed array', () => {
    const steps = [
      { expect: 'for billing', press: '2' },
      { wait: 1.5 },
      { expect: 'in a few words', say: 'representative', timeout_seconds: 20, note: 'speech menu' },
    ];
    expect(parseFlowSteps(JSON.stringify(steps))).toEqual({ ok: true, value: steps });
    expect(parseFlowSteps(steps)).toEqual({ ok: true, value: steps });
  });

  it.each([
    ['not JSON', '[{', 'not valid JSON'],
    ['an empty list', '[]', 'too_small'],
    ['an object', '{"press":"1"}', 'expected array'],
    ['two actions', '[{"press":"1","wait":2}]', 'step 1: give exactly one of press, wait or say'],
    ['no action', '[{"expect":"menu"}]', 'step 1: give exactly one of press, wait or say'],
    ['bad digits', '[{"press":"12x"}]', 'step 1 (press): press takes 1-32 DTMF digits'],
    ['a long wait', '[{"wait":601}]', 'step 1 (wait)'],
    ['an unknown field', '[{"press":"1","delay":3}]', 'step 1'],
    ['an empty expect', '[{"expect":" ","press":"1"}]', 'step 1 (expect)'],
    ['a zero timeout', '[{"press":"1","timeout_seconds":0}]', 'step 1 (timeout_seconds)'],
  ])('refuses %s', (_name, json, message) => {
    const result = parseFlowSteps(json);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_call_flow' } });
    if (!result.ok && !message.includes('_')) expect(result.error.message).toContain(message);
  });

  it('refuses more than 50 steps', () => {
    expect(parseFlowSteps(Array.from({ length: 51 }, () => ({ wait: 0 })))).toMatchObject({ ok: false });
  });

  it('refuses card and social security numbers anywhere in the steps', () => {
    expect(parseFlowSteps([{ press: '4111111111111111' }])).toMatchObject({
      ok: false,
      error: { code: 'sensitive_number', path: 'steps[0].press' },
    });
    expect(parseFlowSteps([{ press: '1', note: 'ssn 123-45-6789' }])).toMatchObject({
      ok: false,
      error: { code: 'sensitive_number' },
    });
  });
});

describe('call flows › matching prompts', () => {
  it('compares words, ignoring case, punctuation and keys spelt as symbols', () => {
    expect(normalisePrompt('For BILLING, press 2!  Or press *.')).toBe('for billing press 2 or press star');
    expect(normalisePrompt('Café #')).toBe('cafe pound');
    expect(promptMatches('for billing', 'Thank you. For billing, press 2.')).toBe(true);
    expect(promptMatches('bill', 'For billing, press 2.')).toBe(false);
    expect(promptMatches('...', 'anything')).toBe(false);
  });
});

describe('call flows › running a flow', () => {
  const steps: FlowStep[] = [
    { press: '1' },
    { expect: 'for billing', press: '2', timeout_seconds: 10 },
    { wait: 2 },
    { say: 'agent' },
    { expect: 'account number', press: '1234#' },
  ];

  it('runs the leading steps at once and waits for the first expected prompt', () => {
    const { actions, position } = startFlow(steps);
    expect(actions).toEqual([{ kind: 'press', digits: '1', step: 0 }]);
    expect(position).toEqual({ next: 1, awaiting: { expect: 'for billing', timeout_seconds: 10 } });
  });

  it('runs a step and the steps chained to it when its prompt is heard', () => {
    const { position } = startFlow(steps);
    const next = advanceFlow(steps, position, 'For billing, press 2. For claims, press 3.');
    expect(next.actions).toEqual([
      { kind: 'press', digits: '2', step: 1 },
      { kind: 'wait', seconds: 2, step: 2 },
      { kind: 'say', text: 'agent', step: 3 },
    ]);
    expect(next.position).toEqual({
      next: 4,
      awaiting: { expect: 'account number', timeout_seconds: DEFAULT_EXPECT_TIMEOUT_SECONDS },
    });
    const last = advanceFlow(steps, next.position, 'Please enter your account number.');
    expect(last).toEqual({
      actions: [{ kind: 'press', digits: '1234#', step: 4 }],
      position: { next: 5, awaiting: undefined },
    });
    expect(advanceFlow(steps, last.position, 'anything')).toEqual({ actions: [], position: last.position });
  });

  it('ignores prompts the next step does not wait for', () => {
    const { position } = startFlow(steps);
    expect(advanceFlow(steps, position, 'Calls may be recorded.')).toEqual({ actions: [], position });
  });
});

describe('call flows › learning', () => {
  const heard: ExplorationEntry[] = [
    { kind: 'prompt', text: 'Thank you for calling Acme Bank. Calls may be recorded.' },
    { kind: 'prompt', text: 'For billing, press 2. For claims, press 3.' },
    { kind: 'press', digits: '2' },
    { kind: 'prompt', text: 'Billing. Please enter your account number, followed by pound.' },
    { kind: 'press', digits: '1234' },
    { kind: 'press', digits: '5678' },
    { kind: 'press', digits: '#' },
    { kind: 'prompt', text: 'Briefly, what is your call about?' },
    { kind: 'say', text: 'representative' },
    { kind: 'reached', what: 'hold' },
    { kind: 'press', digits: '9' },
  ];

  it('turns the prompts and what was sent into steps, up to the queue', () => {
    expect(learnFlow(heard)).toEqual({
      ok: true,
      value: [
        { expect: 'for billing press 2', press: '2' },
        { expect: 'please enter your account number followed by pound', press: '12345678#' },
        { expect: 'briefly what is your call about', say: 'representative' },
      ],
    });
  });

  it('keeps digits pressed before any prompt, and splits key runs longer than a step', () => {
    const result = learnFlow([
      { kind: 'press', digits: '1' },
      { kind: 'press', digits: '2'.repeat(31) },
      { kind: 'press', digits: '3' },
      { kind: 'reached', what: 'human' },
    ]);
    expect(result).toEqual({ ok: true, value: [{ press: `1${'2'.repeat(31)}` }, { press: '3' }] });
  });

  it('refuses a call that never reached hold or a person, and one that sent nothing', () => {
    expect(learnFlow(heard.slice(0, 5))).toMatchObject({
      ok: false,
      error: { code: 'exploration_incomplete' },
    });
    expect(
      learnFlow([
        { kind: 'prompt', text: 'Please hold.' },
        { kind: 'reached', what: 'hold' },
      ]),
    ).toMatchObject({
      ok: false,
      error: { code: 'nothing_to_learn' },
    });
  });

  it('refines an existing flow, keeping the notes, timeouts and wording of steps still taken', () => {
    const existing: FlowStep[] = [
      { expect: 'for billing', press: '2', timeout_seconds: 45, note: 'main menu' },
      { expect: 'member id', press: '99#' },
    ];
    const refined = learnFlow(heard, existing);
    expect(refined).toEqual({
      ok: true,
      value: [
        { expect: 'for billing', press: '2', timeout_seconds: 45, note: 'main menu' },
        { expect: 'please enter your account number followed by pound', press: '12345678#' },
        { expect: 'briefly what is your call about', say: 'representative' },
      ],
    });
    const unexpected: FlowStep[] = [{ press: '2' }];
    expect(
      learnFlow(
        [
          { kind: 'press', digits: '2' },
          { kind: 'reached', what: 'hold' },
        ],
        unexpected,
      ),
    ).toEqual({
      ok: true,
      value: [{ press: '2' }],
    });
  });

  it('names the sentence with the digits sent, else the last one', () => {
    expect(expectFor('Welcome. For claims, press 3. For billing, press 2.', '2')).toBe('for billing press 2');
    expect(expectFor('Welcome. Enter your PIN.', '0000')).toBe('enter your pin');
    expect(expectFor('One two three four five six seven eight nine ten.', '#')).toBe(
      'three four five six seven eight nine ten',
    );
    expect(expectFor('...', '1')).toBeUndefined();
  });
});
