import { describe, expect, it } from 'vitest';
import type { AudioSegment } from '../../src/gateway/analysis-port.js';
import { synthesiseFrame } from '../../src/gateway/audio-synthesis.js';
import { ScriptedCarrier, type CallScript } from '../../src/gateway/scripted-carrier.js';
import { SAMPLES_PER_FRAME, type CallLeg, type TelephonyEvent } from '../../src/gateway/telephony-port.js';

const NUMBER = '+13125550100';

const rms = (samples: Int16Array) => Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);

/** Places a call and collects its events and what the paired analysis makes of its audio. */
async function run(
  script: CallScript,
  drive?: (leg: CallLeg, events: TelephonyEvent[], segments: AudioSegment[]) => Promise<void>,
) {
  const carrier = new ScriptedCarrier({
    scripts: { [NUMBER]: script },
    frameIntervalMs: 1,
    registeredDevices: ['sip:desk@x'],
  });
  const events: TelephonyEvent[] = [];
  const segments: AudioSegment[] = [];
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const sessionFor: { push?: (e: TelephonyEvent) => void } = {};
  const leg = await carrier.place(NUMBER, (event) => {
    events.push(event);
    sessionFor.push?.(event);
    if (event.type === 'ended') ended();
  });
  const session = carrier.analysis.open(leg.id);
  sessionFor.push = (event) => {
    if (event.type === 'audio') segments.push(...session.push(event.frame));
  };
  await drive?.(leg, events, segments);
  await done;
  segments.push(...session.flush());
  return { carrier, events, segments, leg };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

describe('the scripted carrier', () => {
  it('rings, answers and plays 8 kHz frames in order, then ends as scripted', async () => {
    const { events, segments } = await run({
      start: 'a',
      recording: true,
      nodes: {
        a: {
          play: [
            { kind: 'ivr', text: 'Hello.', ms: 100 },
            { kind: 'music', ms: 60 },
          ],
          hangup: true,
        },
      },
    });
    expect(events[0]).toEqual({ type: 'ringing' });
    expect(events.filter((e) => e.type !== 'audio').map((e) => e.type)).toEqual([
      'ringing',
      'answered',
      'recording',
      'ended',
    ]);
    const frames = events.flatMap((e) => (e.type === 'audio' ? [e.frame] : []));
    expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i));
    expect(frames.every((f) => f.samples.length === SAMPLES_PER_FRAME)).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'ended', cause: 'remote_hangup' });
    expect(events.at(-2)).toMatchObject({ type: 'recording', duration_ms: frames.length * 20 });
    expect(segments).toEqual([
      { label: 'ivr_speech', start_ms: 0, end_ms: 100, text: 'Hello.', confidence: 1 },
      { label: 'music', start_ms: 100, end_ms: 160, confidence: 1 },
    ]);
  });

  it.each(['busy', 'no_answer', 'rejected', 'failed'] as const)(
    'ends an unanswered call as %s',
    async (outcome) => {
      const { events } = await run({ outcome, ringMs: 20, start: 'x', nodes: {} });
      expect(events.map((e) => e.type)).toEqual(['ringing', 'ended']);
      expect(events.at(-1)).toEqual({ type: 'ended', cause: outcome });
    },
  );

  it('follows DTMF (reset by a wrong key) and speech to the next node, cutting the prompt short', async () => {
    const script: CallScript = {
      start: 'menu',
      nodes: {
        menu: {
          play: [{ kind: 'ivr', text: 'Enter your code.', ms: 2000 }],
          on: { '42#': 'speak', '7': 'menu' },
        },
        speak: { play: [{ kind: 'ivr', text: 'Say something.' }], on: { 'say:an agent': 'agent' } },
        agent: { play: [{ kind: 'human', text: 'Hi.' }], hangup: true },
      },
    };
    const { segments, carrier } = await run(script, async (leg, events) => {
      await until(() => events.some((e) => e.type === 'audio'));
      await leg.sendDtmf('4');
      await leg.sendDtmf('9');
      await leg.sendDtmf('42#');
      await until(() => events.filter((e) => e.type === 'audio').length > 120);
      await leg.speak('I would like an agent please');
    });
    expect(segments.filter((s) => s.label !== 'silence').map((s) => s.text)).toEqual([
      'Enter your code.',
      'Say something.',
      'Hi.',
    ]);
    expect(segments[0]!.end_ms).toBeLessThan(2000);
    expect(carrier.legs[0]).toMatchObject({
      dtmf: ['4', '9', '42#'],
      spoken: ['I would like an agent please'],
    });
  });

  it('rings a device and bridges, or reports that it did not answer', async () => {
    const script: CallScript = {
      start: 'a',
      afterBridgeMs: 40,
      nodes: { a: { play: [{ kind: 'human', text: 'Hello?' }] } },
    };
    const { events } = await run(script, async (leg, seen) => {
      await until(() => seen.some((e) => e.type === 'answered'));
      await leg.bridge({ kind: 'sip', address: 'sip:other@x' });
      await until(() => seen.some((e) => e.type === 'bridge_failed'));
      await leg.bridge({ kind: 'sip', address: 'sip:desk@x' });
    });
    expect(events.filter((e) => e.type !== 'audio')).toEqual([
      { type: 'ringing' },
      { type: 'answered' },
      { type: 'device_ringing', device: 'sip:other@x' },
      { type: 'bridge_failed', device: 'sip:other@x', reason: 'the device did not answer' },
      { type: 'device_ringing', device: 'sip:desk@x' },
      { type: 'bridged', device: 'sip:desk@x' },
      { type: 'ended', cause: 'remote_hangup' },
    ]);
  });

  it('hangs up on request and knows which devices are online', async () => {
    const { events, carrier } = await run(
      { start: 'a', nodes: { a: { play: [{ kind: 'music', ms: 100 }], loop: true } } },
      async (leg) => {
        leg.sendAudio({ seq: 0, samples: new Int16Array(SAMPLES_PER_FRAME) });
        await leg.hangup();
      },
    );
    expect(events.at(-1)).toEqual({ type: 'ended', cause: 'local_hangup' });
    expect(carrier.legs[0]?.hungUp).toBe(true);
    expect(carrier.deviceOnline({ kind: 'sip', address: 'sip:desk@x' })).toBe(true);
    expect(carrier.deviceOnline({ kind: 'sip', address: 'sip:nobody@x' })).toBe(false);
    expect(carrier.deviceOnline({ kind: 'phone', address: '+13125550101' })).toBe(true);
    carrier.setRegistered('sip:desk@x', false);
    expect(carrier.deviceOnline({ kind: 'sip', address: 'sip:desk@x' })).toBe(false);
  });

  it('fails calls to numbers it has no script for', async () => {
    const carrier = new ScriptedCarrier({ scripts: {}, frameIntervalMs: 1 });
    const events: TelephonyEvent[] = [];
    await carrier.place('+13125550999', (e) => events.push(e));
    await until(() => events.some((e) => e.type === 'ended'));
    expect(events.at(-1)).toEqual({ type: 'ended', cause: 'failed' });
    expect(carrier.status()).toEqual({ name: 'scripted', registered: true, detail: 'scripted test carrier' });
  });
});

describe('synthetic audio', () => {
  it('is deterministic, silent where it should be, and loud where it should be', () => {
    expect(synthesiseFrame('music', 7)).toEqual(synthesiseFrame('music', 7));
    expect(rms(synthesiseFrame('silence', 3))).toBe(0);
    for (const kind of ['music', 'speech', 'tone', 'ringback'] as const)
      expect(rms(synthesiseFrame(kind, 5))).toBeGreaterThan(500);
    // Ringback is off for four seconds after two seconds on.
    expect(rms(synthesiseFrame('ringback', 150))).toBe(0);
  });
});
