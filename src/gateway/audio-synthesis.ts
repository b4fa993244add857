import { SAMPLE_RATE, SAMPLES_PER_FRAME } from './telephony-port.js';

/**
 * Synthetic 8 kHz telephone audio for the scripted carrier: each kind of sound has the features a
 * real classifier listens for (steady dual tones for ringback, changing pitched notes for music,
 * syllable-shaped noise for speech, nothing for silence), generated deterministically from the
 * frame's position so that two runs produce the same samples.
 */
export type SoundKind = 'silence' | 'ringback' | 'music' | 'speech' | 'tone';

const AMPLITUDE = 8000;
/** A pentatonic phrase (Hz), one note per 250 ms. */
const MELODY = [392, 440, 523, 587, 659, 587, 523, 440];
const NOTE_SAMPLES = SAMPLE_RATE / 4;

const sine = (frequency: number, n: number): number => Math.sin((2 * Math.PI * frequency * n) / SAMPLE_RATE);

/** A small deterministic noise source (a 32-bit xorshift) seeded by the sample index. */
function noise(n: number): number {
  let x = (n + 0x9e3779b9) | 0;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return ((x >>> 0) / 0xffffffff) * 2 - 1;
}

function sample(kind: SoundKind, n: number): number {
  switch (kind) {
    case 'silence':
      return 0;
    case 'ringback':
      // North American ringback: 440 Hz + 480 Hz (2 s on, 4 s off).
      return n % (6 * SAMPLE_RATE) < 2 * SAMPLE_RATE ? (sine(440, n) + sine(480, n)) / 2 : 0;
    case 'music': {
      const note = MELODY[Math.floor(n / NOTE_SAMPLES) % MELODY.length]!;
      return 0.6 * sine(note, n) + 0.3 * sine(note * 2, n);
    }
    case 'speech': {
      // About four syllables a second: noise shaped by a raised-cosine envelope.
      const envelope = 0.5 - 0.5 * Math.cos((2 * Math.PI * 4 * n) / SAMPLE_RATE);
      return envelope * (0.7 * noise(n) + 0.3 * sine(180, n));
    }
    case 'tone':
      return sine(1000, n);
  }
}

/** Frame number `seq` (20 ms, 160 samples) of a continuous sound. */
export function synthesiseFrame(kind: SoundKind, seq: number): Int16Array {
  const samples = new Int16Array(SAMPLES_PER_FRAME);
  const first = seq * SAMPLES_PER_FRAME;
  for (let i = 0; i < SAMPLES_PER_FRAME; i++) samples[i] = Math.round(AMPLITUDE * sample(kind, first + i));
  return samples;
}
