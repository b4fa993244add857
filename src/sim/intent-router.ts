import type { ChatMessage } from './chat.js';
import {
  findAmounts,
  findAppointmentId,
  findContact,
  findDate,
  findLastFour,
  findName,
  findSlotChoice,
  findTime,
} from './utterance.js';

/**
 * A deterministic keyword/regex intent router: the same tool calls a model would make, decided by
 * rules. It is the scripted provider, the fallback when a model is down, and the grounding guard's
 * reference for which tool a question belongs to. It recovers from transport failures; it does not
 * measure how well any model chooses tools.
 */
export type Route =
  | { readonly kind: 'tool'; readonly name: string; readonly arguments: Record<string, unknown> }
  | { readonly kind: 'reply'; readonly text: string; readonly reason: 'ask' | 'chat' };

/** What the conversation so far established, read from its messages. */
export interface Memory {
  date?: string;
  service?: string;
  staffId?: string;
  offered: string[];
  appointmentId?: string;
  /** A full phone or e-mail the caller said. */
  contact?: string;
  /** The caller's own name, as they said it. */
  name?: string;
  /** The last time of day the caller asked for. */
  time?: string;
}

export interface RouterContext {
  readonly today: string;
  readonly staff: readonly { readonly id: string; readonly name: string }[];
  readonly memory: Memory;
}

export const READ_ONLY_TOOLS = new Set([
  'check_availability',
  'answer_office_faq',
  'estimate_home_insurance_quote_range',
  'get_appointment_status',
]);

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Replays the conversation: what the caller said, which tools ran with what, what they answered. */
export function memoryFrom(messages: readonly ChatMessage[], today: string): Memory {
  const memory: Memory = { offered: [] };
  for (const message of messages) {
    if (message.role === 'user') {
      memory.time = findTime(message.content, today) ?? memory.time;
      memory.date = findDate(message.content, today)?.value ?? memory.date;
      memory.name = findName(message.content) ?? memory.name;
      memory.contact = findContact(message.content) ?? memory.contact;
      memory.appointmentId = findAppointmentId(message.content) ?? memory.appointmentId;
    } else if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        if (call.name === 'check_availability' || call.name === 'book_appointment') {
          memory.date = str(call.arguments.date) ?? memory.date;
          memory.service = str(call.arguments.service) ?? memory.service;
          memory.staffId = str(call.arguments.staff_id) ?? memory.staffId;
        }
      }
    } else if (message.role === 'tool') {
      const result = parseJson(message.content);
      if (!result || result.ok !== true) continue;
      if (message.name === 'check_availability' && Array.isArray(result.slots)) {
        memory.offered = (result.slots as { start_time?: unknown }[])
          .map((slot) => str(slot.start_time))
          .filter((time): time is string => time !== undefined);
      }
      memory.appointmentId = str(result.appointment_id) ?? memory.appointmentId;
    }
  }
  return memory;
}

const SERVICES: readonly [RegExp, string][] = [
  [
    /\bpolicy reviews?\b|\breview (?:of )?(?:my |our )?(?:policy|policies|coverage|insurance)\b|\bpolicy check/i,
    'policy_review',
  ],
  [
    /\bquote walk ?-?throughs?\b|\bwalk (?:me |us )?through (?:a|my|the|our) (?:new )?quote\b|\bgo (?:over|through) (?:a|my|the) quote\b/i,
    'quote_walkthrough',
  ],
  [/\bconsult(?:ations?)?\b/i, 'consultation'],
];

function findService(text: string): string | undefined {
  return SERVICES.find(([pattern]) => pattern.test(text))?.[1];
}

function findStaff(text: string, staff: RouterContext['staff']): string | undefined {
  const lower = text.toLowerCase();
  return staff.find((s) => {
    const [first, ...rest] = s.name.toLowerCase().split(' ');
    return new RegExp(`\\b(?:${first}|${rest.join(' ')})\\b`).test(lower);
  })?.id;
}

const STATES: Readonly<Record<string, string>> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
};
const STATE_CODES = new Set(Object.values(STATES));

function findState(text: string): string | undefined {
  const lower = text.toLowerCase();
  const byName = Object.keys(STATES)
    .sort((a, b) => b.length - a.length)
    .find((name) => new RegExp(`\\b${name}\\b`).test(lower));
  if (byName) return STATES[byName];
  for (const m of text.matchAll(/\b([A-Z]{2})\b/g)) if (STATE_CODES.has(m[1]!)) return m[1];
  return undefined;
}

const CONSTRUCTION: readonly [RegExp, string][] = [
  [/\bfire[- ]resistive\b/i, 'fire_resistive'],
  [/\b(?:brick|masonry) veneer\b/i, 'masonry_veneer'],
  [/\bsuperior\b/i, 'superior'],
  [/\b(?:brick|masonry|stone|concrete block)\b/i, 'masonry'],
  [/\b(?:wood[- ])?frame\b|\bwooden\b/i, 'frame'],
];

/** An illustrative home-insurance range needs state, coverage and year built; the rest is optional. */
function quoteRoute(text: string): Route {
  const amounts = findAmounts(text);
  const deductible = amounts.find((a) =>
    /deductible/i.test(text.slice(Math.max(0, a.index - 25), a.index + a.text.length + 20)),
  );
  const coverage = amounts.filter((a) => a !== deductible).sort((a, b) => b.value - a.value)[0];
  const yearMatch =
    /\b(?:built|constructed|from|in)\s+(?:in\s+)?(1[89]\d{2}|20\d{2})\b/i.exec(text) ??
    /\b(1[89]\d{2}|20[0-2]\d)\b(?!,)/.exec(text);
  const roof =
    /\broof(?: is| that is|'s)?(?: about| around)? (\d{1,2}) years? old\b/i.exec(text) ??
    /\b(\d{1,2})[- ]years?[- ]old roof\b/i.exec(text) ??
    /\broof age(?: of| is)? (\d{1,2})\b/i.exec(text);
  const state = findState(text);
  const construction = CONSTRUCTION.find(([pattern]) => pattern.test(text))?.[1];
  if (!state || !coverage || !yearMatch) {
    return {
      kind: 'reply',
      reason: 'ask',
      text: 'For a rough range I need the state, the dwelling coverage amount and the year the home was built.',
    };
  }
  return {
    kind: 'tool',
    name: 'estimate_home_insurance_quote_range',
    arguments: {
      state,
      dwelling_coverage: coverage.value,
      year_built: Number(yearMatch[1]),
      ...(construction ? { construction_type: construction } : {}),
      ...(roof ? { roof_age_years: Number(roof[1]) } : {}),
      ...(deductible ? { deductible: deductible.value } : {}),
    },
  };
}

function statusRoute(text: string, memory: Memory): Route {
  const id = findAppointmentId(text) ?? memory.appointmentId;
  const contact = findContact(text) ?? findLastFour(text) ?? memory.contact;
  if (!id)
    return { kind: 'reply', reason: 'ask', text: 'What is your reference number? It starts with A P T.' };
  if (!contact)
    return { kind: 'reply', reason: 'ask', text: 'What phone number or e-mail did you book with?' };
  return { kind: 'tool', name: 'get_appointment_status', arguments: { appointment_id: id, contact } };
}

function cancelRoute(text: string, memory: Memory): Route {
  const id = findAppointmentId(text) ?? memory.appointmentId;
  const contact = findContact(text) ?? memory.contact;
  if (!id)
    return {
      kind: 'reply',
      reason: 'ask',
      text: 'Which appointment should I ask staff to cancel? Please tell me the reference number.',
    };
  if (!contact)
    return { kind: 'reply', reason: 'ask', text: 'What phone number or e-mail did you book with?' };
  const reason = /\bbecause\s+(.+?)[.!?]*$/i.exec(text)?.[1];
  return {
    kind: 'tool',
    name: 'cancel_appointment',
    arguments: { appointment_id: id, contact, ...(reason ? { reason } : {}) },
  };
}

function escalationRoute(text: string): Route {
  const lower = text.toLowerCase();
  const action = /binding quote|actual quote|real quote|firm quote/.test(lower)
    ? 'binding_quote'
    : /complain|complaint/.test(lower)
      ? 'complaint'
      : /call (?:me )?back|callback|give me a call|phone me/.test(lower)
        ? 'callback'
        : 'speak_to_advisor';
  const urgency = /\b(?:urgent|urgently|asap|as soon as possible|emergency|right away|immediately)\b/.test(
    lower,
  )
    ? 'high'
    : 'normal';
  return {
    kind: 'tool',
    name: 'request_human_approval',
    arguments: { action, summary: text.trim().slice(0, 500), urgency },
  };
}

function bookRoute(text: string, ctx: RouterContext, resumed = false): Route {
  const { memory } = ctx;
  const date = findDate(text, ctx.today)?.value ?? memory.date;
  const service = findService(text) ?? memory.service ?? 'consultation';
  const staffId = findStaff(text, ctx.staff) ?? memory.staffId;
  const time =
    findTime(text, ctx.today) ?? findSlotChoice(text, memory.offered) ?? (resumed ? memory.time : undefined);
  if (date && !time) return availabilityRoute(text, ctx);
  if (!date) return { kind: 'reply', reason: 'ask', text: 'Which day would you like to come in?' };
  const name = findName(text) ?? memory.name;
  const contact = findContact(text) ?? memory.contact;
  if (!name || !contact) {
    return {
      kind: 'reply',
      reason: 'ask',
      text: 'What name should I put the hold under, and what phone number or e-mail can the office reach you at?',
    };
  }
  const notes = /\b(?:about|regarding|to discuss)\s+(.+?)[.!?]*$/i.exec(text)?.[1];
  return {
    kind: 'tool',
    name: 'book_appointment',
    arguments: {
      client_name: name,
      contact,
      service,
      date,
      start_time: time,
      ...(staffId ? { staff_id: staffId } : {}),
      ...(notes && !findContact(notes) ? { notes } : {}),
    },
  };
}

function availabilityRoute(text: string, ctx: RouterContext): Route {
  const date = findDate(text, ctx.today)?.value;
  const service = findService(text) ?? ctx.memory.service ?? 'consultation';
  const staffId = findStaff(text, ctx.staff);
  if (!date) return { kind: 'reply', reason: 'ask', text: 'Which day would you like me to check?' };
  return {
    kind: 'tool',
    name: 'check_availability',
    arguments: { date, service, ...(staffId ? { staff_id: staffId } : {}) },
  };
}

const GREETING = /^(?:hi|hello|hey|good (?:morning|afternoon|evening)|howdy)\b[\s,!.]*(?:there)?[\s,!.]*$/i;
const THANKS = /^(?:thanks|thank you|that's all|that is all|bye|goodbye|great,? thanks?)\b.{0,30}$/i;
const QUESTION =
  /\?\s*$|^(?:who|what|what's|when|where|why|how|do|does|did|can|could|is|are|will|would|should|may|which)\b/i;

const STATUS =
  /\b(?:status|still on|is (?:it|my (?:appointment|hold|booking)|that) (?:still )?(?:on|booked|approved|confirmed|set)|(?:has|have) (?:it|my (?:appointment|hold|booking)|staff|they|someone) (?:been )?(?:approved|confirmed)|(?:check|checking) on my (?:appointment|hold|booking)|any (?:news|update) (?:on|about) (?:my|the) (?:appointment|hold|booking)|(?:was|is) (?:it|my (?:appointment|hold|booking)) (?:approved|confirmed))\b/i;
const CANCEL = /\bcancel\b/i;
const ESCALATE =
  /\b(?:call me back|callback|call back|give me a call|have (?:someone|somebody|an agent|a person) (?:call|contact|reach)|speak (?:to|with) (?:a|an|someone|somebody|the|your) ?(?:real )?(?:person|human|agent|advisor|manager|someone|somebody)?|talk (?:to|with) (?:a|an|someone|somebody) ?(?:real )?(?:person|human|agent)?|(?:binding|actual|real|firm) quote|complaint|escalate|transfer me|connect me)\b/i;
const QUOTE = /\b(?:quote|estimate|how much|price|premium|cost|ballpark|rough range|range)\b/i;
const HOME = /\b(?:home|house|dwelling|homeowners?|condo|property)\b/i;
const BOOK =
  /\b(?:book|hold|reserve|schedule|grab|take|put me down|sign me up|lock in|set (?:it|me) up|i'?ll take|i want|i'd like|let'?s do|make (?:it|that)|go with)\b/i;
const AVAILABILITY =
  /\b(?:openings?|availab\w*|free|slots?|times|any ?time|fit me in|get in|come in|appointments?|see (?:someone|somebody|an agent|me|us))\b/i;
/** A status question about no appointment in particular is a question about how holds work. */
const GENERAL = /\b(?:when|if|usually|always|does|do|normally)\b/i;

/** Decides the next step for one utterance, given what the conversation already established. */
export function route(utterance: string, ctx: RouterContext): Route {
  const text = utterance.trim();
  if (GREETING.test(text)) {
    return {
      kind: 'reply',
      reason: 'chat',
      text: 'Hi! I can check openings, hold a time for a staff member to confirm, answer office questions or give a rough home-insurance range. How can I help?',
    };
  }
  if (THANKS.test(text)) return { kind: 'reply', reason: 'chat', text: "You're welcome. Have a good day!" };
  const question = QUESTION.test(text);
  const howTo = /^(?:how (?:do|can|would|should) (?:i|we)|what (?:do|should) i)\b/i.test(text);
  const id = findAppointmentId(text) ?? ctx.memory.appointmentId;
  const asksStatus =
    (STATUS.test(text) ||
      (findAppointmentId(text) !== undefined &&
        /\b(?:confirm|approv|status|still on|check|update)/i.test(text))) &&
    !/\bclaim\b/i.test(text) &&
    !howTo &&
    (id !== undefined || !GENERAL.test(text));
  if (asksStatus) return statusRoute(text, ctx.memory);
  if (CANCEL.test(text) && !howTo && !/\bpolic(?:y|ies)\b/i.test(text)) return cancelRoute(text, ctx.memory);
  if (ESCALATE.test(text) && !howTo) return escalationRoute(text);
  if (QUOTE.test(text) && HOME.test(text) && findAmounts(text).length > 0) return quoteRoute(text);
  const hasTime =
    findTime(text, ctx.today) !== undefined || findSlotChoice(text, ctx.memory.offered) !== undefined;
  if (BOOK.test(text) && !howTo && (hasTime || findDate(text, ctx.today) !== undefined)) {
    return bookRoute(text, ctx);
  }
  const date = findDate(text, ctx.today);
  // A service on a day ("any consultations on Wednesday?") is a question about openings too.
  const wantsTime =
    AVAILABILITY.test(text) || findStaff(text, ctx.staff) !== undefined || (date && findService(text));
  if (wantsTime && !howTo && (date || findService(text))) {
    return availabilityRoute(text, ctx);
  }
  // Name and contact given after being asked for them: the booking asked for before goes ahead.
  if ((findContact(text) || findName(text)) && ctx.memory.time && ctx.memory.date)
    return bookRoute(text, ctx, true);
  if (question || text.split(/\s+/).length >= 3) {
    return { kind: 'tool', name: 'answer_office_faq', arguments: { question: text } };
  }
  return {
    kind: 'reply',
    reason: 'chat',
    text: 'I can check openings, hold a time, answer office questions or give a rough home-insurance range. What would you like to do?',
  };
}
