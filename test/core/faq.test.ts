import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FaqAnswer, FaqEntry, FaqFile } from '../../src/core/faq.js';
import {
  answerFaq,
  buildFaqIndex,
  FaqFileSchema,
  GROUNDED_THRESHOLD,
  MIN_FAQ_ENTRIES,
  stem,
} from '../../src/core/faq.js';

const rawFile: unknown = JSON.parse(readFileSync(new URL('../../data/faq.json', import.meta.url), 'utf8'));
const file: FaqFile = FaqFileSchema.parse(rawFile);
const index = buildFaqIndex(file);

function groundedId(answer: FaqAnswer): string {
  if (!answer.grounded)
    throw new Error(`expected a grounded answer, got suggestions ${JSON.stringify(answer)}`);
  return answer.id;
}

const entry = (id: string, overrides: Partial<FaqEntry> = {}): FaqEntry => ({
  id,
  question: `What about topic ${id}?`,
  variants: [`Tell me about topic ${id}`, `Topic ${id} please`],
  answer: `The answer for ${id}.`,
  keywords: [id],
  ...overrides,
});

/** A schema-valid file of distinct filler entries, to be patched per test. */
const validFile = (): FaqFile => ({
  synonyms: {},
  entries: Array.from({ length: MIN_FAQ_ENTRIES }, (_, i) => entry(`topic${i}`)),
});

describe('faq', () => {
  describe('schema', () => {
    it('accepts the bundled FAQ file', () => {
      expect(FaqFileSchema.safeParse(rawFile).success).toBe(true);
      expect(file.entries.length).toBeGreaterThanOrEqual(34);
    });

    it('accepts a minimal well-formed file', () => {
      expect(FaqFileSchema.safeParse(validFile()).success).toBe(true);
    });

    it('rejects duplicate entry ids', () => {
      const f = validFile();
      f.entries.push(entry('topic0'));
      expect(FaqFileSchema.safeParse(f).success).toBe(false);
    });

    it(`rejects a file with fewer than ${MIN_FAQ_ENTRIES} entries`, () => {
      const f = validFile();
      f.entries.pop();
      expect(FaqFileSchema.safeParse(f).success).toBe(false);
    });

    it.each([
      ['an id that is not kebab-case', { id: 'Office_Hours' }],
      ['a blank question', { question: '   ' }],
      ['an empty answer', { answer: '' }],
      ['fewer than two variants', { variants: ['Only one way to ask?'] }],
      ['an empty keyword', { keywords: [''] }],
    ])('rejects an entry with %s', (_label, overrides) => {
      const f = validFile();
      f.entries[0] = entry('topic0', overrides);
      expect(FaqFileSchema.safeParse(f).success).toBe(false);
    });

    it('rejects a synonym listed under two canonical words', () => {
      const f = { ...validFile(), synonyms: { car: ['auto'], vehicle: ['autos'] } };
      expect(FaqFileSchema.safeParse(f).success).toBe(false);
    });

    it('rejects a synonym that has no words in it', () => {
      expect(FaqFileSchema.safeParse({ ...validFile(), synonyms: { car: ['?!'] } }).success).toBe(false);
    });

    it('rejects a canonical word that is not a single lowercase word', () => {
      expect(
        FaqFileSchema.safeParse({ ...validFile(), synonyms: { 'Office Hours': ['hours'] } }).success,
      ).toBe(false);
    });
  });

  describe('normalisation', () => {
    it.each([
      ['policies', 'policy'],
      ['parking', 'park'],
      ['filed', 'fil'],
      ['filing', 'fil'],
      ['file', 'fil'],
      ['cancelled', 'cancel'],
      ['canceling', 'cancel'],
      ['hours', 'hour'],
      ['business', 'business'],
      ['status', 'status'],
      ['bring', 'bring'],
    ])('stems "%s" to "%s"', (word, expected) => {
      expect(stem(word)).toBe(expected);
    });

    it('ignores case, punctuation and diacritics', () => {
      expect(answerFaq(index, 'WHAT ARE YOUR OFFICE HOURS???')).toEqual(
        answerFaq(index, 'what are your office hours'),
      );
      expect(answerFaq(index, '¿Hablan español?')).toEqual(answerFaq(index, 'hablan espanol'));
    });

    it('matches a multi-word synonym before its words are read alone', () => {
      // "business hours" is about opening times, not business insurance.
      expect(groundedId(answerFaq(index, 'What are your business hours?'))).toBe('office-hours');
      expect(groundedId(answerFaq(index, 'Do you insure a small business?'))).toBe('business-insurance');
    });
  });

  describe('retrieval', () => {
    it.each(file.entries.map((e) => [e.id, e] as const))(
      'retrieves "%s" from its canonical question and every variant',
      (id, faq) => {
        for (const phrasing of [faq.question, ...faq.variants]) {
          const answer = answerFaq(index, phrasing);
          expect(answer, phrasing).toMatchObject({ grounded: true, id });
        }
      },
    );

    it('returns the stored question and answer verbatim with a score above the threshold', () => {
      const answer = answerFaq(index, 'Is there parking at your office?');
      const stored = file.entries.find((e) => e.id === 'parking');
      expect(answer).toEqual({
        grounded: true,
        id: 'parking',
        question: stored?.question,
        answer: stored?.answer,
        score: expect.any(Number) as number,
      });
      expect(answer.score).toBeGreaterThanOrEqual(GROUNDED_THRESHOLD);
      expect(answer.score).toBeLessThanOrEqual(1);
    });

    it.each([
      ['Are you open Sundays?', 'weekend-hours'],
      ['What time do you close on Wednesday?', 'office-hours'],
      ['Are you open at night?', 'evening-hours'],
      ['Are you open on Labor Day?', 'holiday-closures'],
      ['What is the location of your agency?', 'office-location'],
      ['Is the office handicap accessible?', 'accessibility'],
      ['Can I take the train to your office?', 'public-transit'],
      ['What paperwork do I need for a car insurance quote?', 'documents-for-quote'],
      ['How do I pay my premium?', 'payment-methods'],
      ['My bill is overdue', 'late-payments'],
      ['I was in a car crash', 'file-a-claim'],
      ['Can I add my teen driver?', 'add-driver'],
      ['I bought a new truck', 'add-vehicle'],
      ['Can I get my money back if I cancel?', 'cancel-policy'],
      ['Is there an agent who speaks Mandarin?', 'languages'],
      ['Can I drop by without an appointment?', 'walk-ins'],
      ['I want to schedule a meeting', 'book-appointment'],
      ['I need to postpone my appointment', 'cancel-appointment'],
      ['Can we do a video call?', 'virtual-meetings'],
      ['Where can I find my proof of insurance?', 'proof-of-insurance'],
      ['My landlord is asking for a certificate', 'certificate-of-insurance'],
      ['Which insurers do you represent?', 'carriers-and-lines'],
      ['Can I combine home and auto to save money?', 'bundling-discounts'],
      ['Why is my house insurance so expensive?', 'home-insurance-factors'],
      ['Does homeowners insurance cover flooding?', 'flood-insurance'],
      ['Do you offer excess liability coverage?', 'umbrella-insurance'],
      ['Do I need insurance for my apartment?', 'renters-insurance'],
      ['Do you do commercial insurance for my shop?', 'business-insurance'],
      ['Is my data kept confidential?', 'privacy-personal-data'],
      ['Is my booking approved yet?', 'holds-and-approvals'],
      ['What is your e-mail address?', 'contact-email'],
      ["What's your telephone number?", 'phone-number'],
      ['Can a representative call me back?', 'request-callback'],
      ['my rates went up', 'auto-rate-increase'],
    ])('answers the paraphrase "%s" from %s', (question, id) => {
      expect(groundedId(answerFaq(index, question))).toBe(id);
    });
  });

  describe('refusing to guess', () => {
    it.each([
      'what is the capital of France',
      'tell me a joke',
      "what's the weather like in Chicago",
      'what time is it',
      'who is the president',
      'order a pizza',
      'book me a flight to Paris',
      'can you change a tire',
      'how do I fix my roof',
      'do you sell life insurance',
    ])('does not ground the off-topic question "%s"', (question) => {
      const answer = answerFaq(index, question);
      expect(answer.grounded).toBe(false);
      expect(answer.score).toBeLessThan(GROUNDED_THRESHOLD);
    });

    it.each(['', '   ', '?!', 'can you please tell me'])(
      'answers %j with no match and no suggestions',
      (question) => {
        expect(answerFaq(index, question)).toEqual({ grounded: false, score: 0, suggestions: [] });
      },
    );

    it('offers the closest entries as suggestions for a near miss', () => {
      const answer = answerFaq(index, 'do you sell life insurance');
      expect(answer).toMatchObject({ grounded: false });
      if (answer.grounded) return;
      expect(answer.score).toBeGreaterThan(0);
      expect(answer.suggestions[0]).toEqual({
        id: 'carriers-and-lines',
        question: 'Which insurance companies do you work with?',
      });
    });

    it('offers at most three suggestions, best first', () => {
      const answer = answerFaq(index, 'what should I bring to my appointment');
      if (answer.grounded) throw new Error('expected an ungrounded answer');
      expect(answer.suggestions.map((s) => s.id)).toEqual([
        'documents-for-policy-review',
        'documents-for-quote',
        'book-appointment',
      ]);
    });

    it('offers no suggestion when nothing is close', () => {
      expect(answerFaq(index, 'what is the capital of France')).toEqual({
        grounded: false,
        score: 0,
        suggestions: [],
      });
    });
  });

  describe('determinism', () => {
    it('gives the same answer to the same question every time', () => {
      const questions = ['Do you take walk-ins?', 'do you sell life insurance', 'tell me a joke'];
      for (const q of questions) expect(answerFaq(index, q)).toEqual(answerFaq(buildFaqIndex(file), q));
    });

    it('does not depend on the order of entries in the file', () => {
      const reversed = buildFaqIndex({ ...file, entries: [...file.entries].reverse() });
      for (const faq of file.entries) {
        expect(answerFaq(reversed, faq.question)).toEqual(answerFaq(index, faq.question));
      }
    });

    it('breaks a tie between equally good entries by id', () => {
      const twin = (id: string): FaqEntry =>
        entry(id, {
          question: 'Is there a shuttle?',
          variants: ['Shuttle?', 'Any shuttle?'],
          keywords: ['shuttle'],
        });
      for (const entries of [
        [twin('b-shuttle'), twin('a-shuttle')],
        [twin('a-shuttle'), twin('b-shuttle')],
      ]) {
        expect(groundedId(answerFaq(buildFaqIndex({ synonyms: {}, entries }), 'Is there a shuttle?'))).toBe(
          'a-shuttle',
        );
      }
    });

    it('keeps its contract for any input: bounded score, grounded above the threshold, at most three suggestions', () => {
      const ids = new Set(file.entries.map((e) => e.id));
      fc.assert(
        fc.property(fc.string({ maxLength: 80 }), (question) => {
          const answer = answerFaq(index, question);
          expect(answer).toEqual(answerFaq(index, question));
          expect(answer.score).toBeGreaterThanOrEqual(0);
          expect(answer.score).toBeLessThanOrEqual(1);
          if (answer.grounded) {
            expect(ids.has(answer.id)).toBe(true);
            expect(answer.score).toBeGreaterThanOrEqual(GROUNDED_THRESHOLD);
          } else {
            expect(answer.score).toBeLessThan(GROUNDED_THRESHOLD);
            expect(answer.suggestions.length).toBeLessThanOrEqual(3);
          }
        }),
      );
    });
  });
});
