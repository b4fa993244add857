import { z } from 'zod';

/**
 * Deterministic keyword retrieval over the office FAQ. The assistant reads the stored answer aloud
 * or says it does not know: there is no generation step, so an answer is either grounded in one
 * entry of `data/faq.json` or refused with suggestions.
 */

/** A file this small is a placeholder, not a knowledge base a caller can rely on. */
export const MIN_FAQ_ENTRIES = 30;

/**
 * Scores are in [0, 1]. Below this the best entry shares too little with the question to be read
 * aloud as its answer. With the bundled data every stored phrasing scores above 0.7 for its own
 * entry, while a question that shares one word with an entry and adds an unknown one ("can you
 * change a tire") stays at or below 0.5; the threshold sits between the two.
 */
export const GROUNDED_THRESHOLD = 0.55;
/** Near-misses at or above this score are offered as "did you mean" suggestions. */
export const SUGGESTION_FLOOR = 0.15;
const MAX_SUGGESTIONS = 3;

/** The best-matching phrasing says what was asked; keywords say what the entry is about. */
const PHRASING_SHARE = 0.6;
const KEYWORD_SHARE = 0.4;

const Text = z.string().trim().min(1);

export const FaqEntrySchema = z.object({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'expected a kebab-case id'),
  question: Text,
  variants: z.array(Text).min(2),
  answer: Text,
  keywords: z.array(Text).min(1),
});

export const FaqFileSchema = z
  .object({
    /** Canonical word -> words or short phrases a caller may say instead. */
    synonyms: z.record(
      z.string().regex(/^[a-z0-9]+$/, 'a canonical word is one lowercase word'),
      z.array(Text).min(1),
    ),
    entries: z.array(FaqEntrySchema).min(MIN_FAQ_ENTRIES),
  })
  .superRefine((file, ctx) => {
    for (const message of [...duplicateIds(file.entries), ...conflictingSynonyms(file.synonyms)]) {
      ctx.addIssue({ code: 'custom', message });
    }
  });

function duplicateIds(entries: readonly FaqEntry[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { id } of entries) {
    if (seen.has(id)) problems.push(`duplicate FAQ id "${id}"`);
    seen.add(id);
  }
  return problems;
}

/** A phrase under two canonical words would make retrieval depend on the file's key order. */
function conflictingSynonyms(synonyms: Readonly<Record<string, readonly string[]>>): string[] {
  const owners = new Map<string, string>();
  const problems: string[] = [];
  for (const [canonical, phrases] of Object.entries(synonyms)) {
    for (const phrase of phrases) {
      const key = stems(phrase).join(' ');
      const owner = owners.get(key);
      if (key === '') problems.push(`synonym "${phrase}" has no words`);
      else if (owner !== undefined && owner !== canonical) {
        problems.push(`synonym "${phrase}" is listed under "${owner}" and "${canonical}"`);
      }
      owners.set(key, canonical);
    }
  }
  return problems;
}

export type FaqFile = z.infer<typeof FaqFileSchema>;
export type FaqEntry = z.infer<typeof FaqEntrySchema>;

export type FaqAnswer =
  | { grounded: true; id: string; question: string; answer: string; score: number }
  | { grounded: false; score: number; suggestions: { id: string; question: string }[] };

interface IndexedEntry {
  readonly entry: FaqEntry;
  /** The canonical question and each variant, as term sets. */
  readonly phrasings: readonly ReadonlySet<string>[];
  readonly keywords: ReadonlySet<string>;
}

export interface FaqIndex {
  /** Sorted by id, so that a stable sort by score breaks ties by id. */
  readonly entries: readonly IndexedEntry[];
  /** Phrase of stems (space-joined) -> canonical stem. */
  readonly synonyms: ReadonlyMap<string, string>;
  readonly longestSynonym: number;
  /** Inverse entry frequency: a word found in few entries tells more than "insurance" or "policy". */
  readonly weights: ReadonlyMap<string, number>;
  readonly unknownWeight: number;
}

// Function words plus the filler of spoken requests ("can you tell me", "I want to know").
const STOP_WORDS = new Set(
  `
    a about again all also am an and any anyone anything anywhere are as ask asking at be been
    being but by can cant could day days did didnt do does doesnt doing dont find for from get gets
    getting go going got had has have having he hello help her here hey hi him his how i if in into
    is isnt it its just know let lets like make me might more most much must my need needs no not of
    ok okay on or our please really she should so some something somewhere still sure tell than
    thank thanks that the their them then there these they this those time to today too up us very
    want wanted wants was way we were what when where which while who why will with wondering would
    yes yet you your yours
  `
    .trim()
    .split(/\s+/),
);

/** Lowercase words without diacritics or punctuation; contractions lose their clitic ("what's" -> "what"). */
function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’](d|ll|m|re|s|ve)\b/g, '')
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/**
 * A light suffix stripper, not Porter: enough that "policies" meets "policy", "parking" meets "park"
 * and "filed" meets "file". Both sides of every comparison go through it, so a stem only has to be
 * consistent, not a real word ("file" -> "fil").
 */
export function stem(word: string): string {
  let s = word;
  if (s.length > 4 && s.endsWith('ies')) s = `${s.slice(0, -3)}y`;
  else if (s.length > 3 && s.endsWith('s') && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.length >= 6 && s.endsWith('ing')) s = s.slice(0, -3);
  else if (s.length >= 5 && s.endsWith('ed')) s = s.slice(0, -2);
  if (s.length > 3 && s.endsWith('e')) s = s.slice(0, -1);
  if (/([b-df-hj-np-rt-z])\1$/.test(s)) s = s.slice(0, -1);
  return s;
}

const stems = (text: string): string[] => words(text).map(stem);

interface Token {
  readonly word: string;
  readonly stem: string;
}

/** Longest synonym phrase first, so "business hours" becomes "hour" before "business" is seen alone. */
function canonicalise(
  tokens: readonly Token[],
  index: Pick<FaqIndex, 'synonyms' | 'longestSynonym'>,
): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < tokens.length) {
    let matched = false;
    for (let length = Math.min(index.longestSynonym, tokens.length - i); length > 0 && !matched; length--) {
      const key = tokens
        .slice(i, i + length)
        .map((t) => t.stem)
        .join(' ');
      const canonical = index.synonyms.get(key);
      if (canonical !== undefined) {
        out.push({ word: canonical, stem: canonical });
        i += length;
        matched = true;
      }
    }
    if (!matched) {
      out.push(tokens[i] as Token);
      i++;
    }
  }
  return out;
}

/** Synonym phrases may contain stop words ("walk in"), so they are matched before stop words go. */
function terms(text: string, index: Pick<FaqIndex, 'synonyms' | 'longestSynonym'>): Set<string> {
  const tokens = words(text).map((word) => ({ word, stem: stem(word) }));
  return new Set(
    canonicalise(tokens, index)
      .filter((t) => !STOP_WORDS.has(t.word))
      .map((t) => t.stem),
  );
}

function synonymTable(file: FaqFile): Pick<FaqIndex, 'synonyms' | 'longestSynonym'> {
  const synonyms = new Map<string, string>();
  let longestSynonym = 1;
  for (const [canonical, phrases] of Object.entries(file.synonyms)) {
    const canonicalStem = stem(canonical);
    for (const phrase of phrases) {
      const phraseStems = stems(phrase);
      synonyms.set(phraseStems.join(' '), canonicalStem);
      longestSynonym = Math.max(longestSynonym, phraseStems.length);
    }
  }
  return { synonyms, longestSynonym };
}

export function buildFaqIndex(file: FaqFile): FaqIndex {
  const table = synonymTable(file);
  const entries = [...file.entries]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((entry): IndexedEntry => ({
      entry,
      phrasings: [entry.question, ...entry.variants].map((text) => terms(text, table)),
      keywords: new Set(entry.keywords.flatMap((keyword) => [...terms(keyword, table)])),
    }));
  const entryFrequency = new Map<string, number>();
  for (const { phrasings, keywords } of entries) {
    const vocabulary = new Set([...keywords, ...phrasings.flatMap((p) => [...p])]);
    for (const term of vocabulary) entryFrequency.set(term, (entryFrequency.get(term) ?? 0) + 1);
  }
  const n = entries.length;
  const weights = new Map([...entryFrequency].map(([term, df]) => [term, Math.log(1 + n / df)]));
  // A word no entry uses counts like the rarest known word: an off-topic question stays off-topic.
  return { ...table, entries, weights, unknownWeight: Math.log(1 + n) };
}

function weightOf(index: FaqIndex, terms: Iterable<string>): number {
  let total = 0;
  for (const term of terms) total += index.weights.get(term) ?? index.unknownWeight;
  return total;
}

const shared = (query: ReadonlySet<string>, other: ReadonlySet<string>): string[] =>
  [...query].filter((term) => other.has(term));

/** Weighted Dice overlap: 1 only when the question says exactly what the phrasing says. */
function phrasingSimilarity(
  index: FaqIndex,
  query: ReadonlySet<string>,
  phrasing: ReadonlySet<string>,
): number {
  return (
    (2 * weightOf(index, shared(query, phrasing))) / (weightOf(index, query) + weightOf(index, phrasing))
  );
}

function scoreEntry(index: FaqIndex, query: ReadonlySet<string>, entry: IndexedEntry): number {
  const bestPhrasing = Math.max(...entry.phrasings.map((p) => phrasingSimilarity(index, query, p)));
  const keywordCoverage = weightOf(index, shared(query, entry.keywords)) / weightOf(index, query);
  // Rounded so that float noise cannot reorder entries whose scores are equal.
  return Math.round((PHRASING_SHARE * bestPhrasing + KEYWORD_SHARE * keywordCoverage) * 10_000) / 10_000;
}

export function answerFaq(index: FaqIndex, question: string): FaqAnswer {
  const query = terms(question, index);
  if (query.size === 0) return { grounded: false, score: 0, suggestions: [] };
  const ranked = index.entries
    .map((indexed) => ({ entry: indexed.entry, score: scoreEntry(index, query, indexed) }))
    .sort((a, b) => b.score - a.score);
  const best = ranked[0];
  if (best !== undefined && best.score >= GROUNDED_THRESHOLD) {
    const { id, question: canonical, answer } = best.entry;
    return { grounded: true, id, question: canonical, answer, score: best.score };
  }
  return {
    grounded: false,
    score: best?.score ?? 0,
    suggestions: ranked
      .filter((r) => r.score >= SUGGESTION_FLOOR)
      .slice(0, MAX_SUGGESTIONS)
      .map((r) => ({ id: r.entry.id, question: r.entry.question })),
  };
}
