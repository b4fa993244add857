import { stem } from '../faq.js';
import { normalisePrompt } from './call-flows.js';

/**
 * Reading a spoken phone menu ("For billing, press 2. To speak with a representative, press 0.")
 * and choosing the option that fits a call's intent, for `ai_assisted` calls where no stored flow
 * step applies. Deliberately simple: word overlap between the option and the intent, and the way to
 * a person when nothing overlaps.
 */
export interface MenuOption {
  readonly digits: string;
  /** The option's words without the "press N" part, e.g. "for billing". */
  readonly label: string;
}

const KEY_WORDS: Readonly<Record<string, string>> = { star: '*', pound: '#', hash: '#', zero: '0' };
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const KEY = `(\\d|${[...Object.keys(KEY_WORDS), ...NUMBER_WORDS.slice(1)].join('|')})`;
const PRESS = new RegExp(`\\b(?:press|dial|enter|select|push)\\s+${KEY}\\b`);

const FILLER = new Set(
  `a an and are at be calling for if i in information is it me my need of on or our please press dial
   select push enter regarding speak talk the to want with would you your about have questions question
   now option options`
    .trim()
    .split(/\s+/),
);

const PERSON = new Set(
  ['representative', 'agent', 'operator', 'person', 'associate', 'specialist', 'human'].map(stem),
);

function keyOf(word: string): string {
  if (/^\d$/.test(word)) return word;
  return KEY_WORDS[word] ?? String(NUMBER_WORDS.indexOf(word));
}

/**
 * The options a prompt offers. Options are sentences or comma-separated clauses that say "press N";
 * a clause without it belongs to the next one ("For billing, press 2").
 */
export function menuOptions(prompt: string): MenuOption[] {
  const options: MenuOption[] = [];
  for (const sentence of prompt.split(/[.!?;\n]+/)) {
    let pending = '';
    for (const part of sentence.split(',')) {
      const clause = normalisePrompt(`${pending} ${part}`);
      const match = PRESS.exec(clause);
      if (!match) {
        pending = clause;
        continue;
      }
      pending = '';
      const label = clause.replace(match[0], ' ').replace(/\s+/g, ' ').trim();
      options.push({ digits: keyOf(match[1]!), label });
    }
  }
  return options;
}

function contentStems(text: string): Set<string> {
  return new Set(
    normalisePrompt(text)
      .split(' ')
      .filter((w) => w !== '' && !FILLER.has(w))
      .map(stem),
  );
}

/**
 * The option to press for `intent`: the one sharing the most words with it; with no overlap, the
 * one that leads to a person; otherwise none (the gateway then waits, as menus usually fall through
 * to an operator).
 */
export function chooseMenuOption(prompt: string, intent: string): MenuOption | undefined {
  const options = menuOptions(prompt);
  const wanted = contentStems(intent);
  let best: { option: MenuOption; score: number } | undefined;
  for (const option of options) {
    const score = [...contentStems(option.label)].filter((s) => wanted.has(s)).length;
    if (score > 0 && (!best || score > best.score)) best = { option, score };
  }
  if (best) return best.option;
  return options.find((o) => [...contentStems(o.label)].some((s) => PERSON.has(s)));
}
