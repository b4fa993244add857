import { readFileSync } from 'node:fs';
import { phoneDigits } from '../../src/sim/utterance.js';

/**
 * The utterance corpus (corpus.json) and how a provider's choice is scored against it: the first
 * tool it calls (or none), and the arguments the corpus names.
 */
export interface CorpusEntry {
  readonly utterance: string;
  readonly tool: string | null;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export interface Corpus {
  readonly today: string;
  readonly utterances: readonly CorpusEntry[];
}

export function loadCorpus(): Corpus {
  return JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8')) as Corpus;
}

export interface Choice {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

function sameValue(key: string, expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'number') return actual === expected;
  if (typeof expected !== 'string' || typeof actual !== 'string') return false;
  if (key === 'contact' && !expected.includes('@')) return phoneDigits(actual) === phoneDigits(expected);
  return actual.trim().toLowerCase() === expected.trim().toLowerCase();
}

export interface Score {
  readonly tool: boolean;
  readonly arguments: boolean;
  readonly wrong: readonly string[];
}

export function score(entry: CorpusEntry, choice: Choice | undefined): Score {
  const tool = (choice?.name ?? null) === entry.tool;
  const wrong = Object.entries(entry.arguments)
    .filter(([key, value]) => !sameValue(key, value, choice?.arguments[key]))
    .map(([key]) => key);
  return { tool, arguments: tool && wrong.length === 0, wrong };
}
