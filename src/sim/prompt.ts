import type { ChatMessage } from './chat.js';

/**
 * The system prompt every provider gets. Its fact lines have a fixed shape, so the scripted router
 * reads today's date and the staff list from the same prompt a language model reads.
 */
export interface SessionFacts {
  readonly officeName: string;
  /** Office-local date, `YYYY-MM-DD`. */
  readonly today: string;
  readonly timezone: string;
  readonly staff: readonly { readonly id: string; readonly name: string }[];
}

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function buildSystemPrompt(facts: SessionFacts, serverInstructions: string | undefined): string {
  const [y, m, d] = facts.today.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAY_NAMES[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
  return [
    `You are the voice assistant answering the phone for ${facts.officeName}.`,
    serverInstructions ?? '',
    'Always use a tool for office facts, openings, prices and appointment statuses; never answer them from memory.',
    'Only use a name, phone number or e-mail the caller actually said. If one is missing, ask for it.',
    'Reply in one to three short spoken sentences, no lists, no markdown.',
    `Today: ${facts.today} (${weekday}), office time zone ${facts.timezone}. Use YYYY-MM-DD dates and 24-hour HH:MM times in tool arguments.`,
    `Staff: ${facts.staff.map((s) => `${s.name} (${s.id})`).join(', ')}.`,
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** The facts back out of a prompt built above (the scripted router has no other source). */
export function readFacts(messages: readonly ChatMessage[]): Pick<SessionFacts, 'today' | 'staff'> {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const today = /^Today: (\d{4}-\d{2}-\d{2})/m.exec(system)?.[1] ?? new Date().toISOString().slice(0, 10);
  const staffLine = /^Staff: (.*)\.$/m.exec(system)?.[1] ?? '';
  const staff = [...staffLine.matchAll(/([^,(]+?) \(([\w.-]+)\)/g)].map((m) => ({
    name: m[1]!.trim(),
    id: m[2]!,
  }));
  return { today, staff };
}
