import {
  addDays,
  formatMinutes,
  isValidLocalDate,
  minutesOf,
  utcToZoned,
  weekdayOf,
  zonedToUtc,
} from './local-time.js';
import { LocalTime } from './office.js';
import type { Office, Service, Staff } from './office.js';
import { refusal, success } from './result.js';
import type { Result } from './result.js';
import { speakDate, speakList, speakService, speakTime } from './spoken.js';

/**
 * The appointment scheduler: which starts are open for a service on a date, and whether one
 * requested start can be taken. Everything is computed from the office definition, the instant
 * passed in as `now`, and the time already occupied (`busy`), so it can be replayed exactly.
 */

/** Time a staff member is not available: a hold, a confirmed or a cancel-requested appointment. */
export type BusyInterval = { staff_id: string; starts_at: Date; ends_at: Date };

export type SlotQuery = {
  office: Office;
  service: string;
  /** Office-local `YYYY-MM-DD`. */
  date: string;
  /** Only this staff member; otherwise anyone who offers the service. */
  staff_id?: string;
  now: Date;
  busy: readonly BusyInterval[];
};

export type OpenSlot = {
  /** Office-local date of the start; alternatives may fall on a later date than the one asked for. */
  date: string;
  start_time: string;
  end_time: string;
  /** UTC ISO instants. */
  starts_at: string;
  ends_at: string;
  /** Every qualified staff member free for the whole slot, in office order. */
  staff: readonly { readonly id: string; readonly name: string }[];
};

export type ScheduleRefusalCode =
  | 'invalid_date'
  | 'date_in_past'
  | 'beyond_horizon'
  | 'office_closed'
  | 'unknown_service'
  | 'unknown_staff'
  | 'service_not_offered'
  | 'invalid_time'
  | 'outside_hours'
  | 'too_soon'
  | 'slot_unavailable';

const MINUTE_MS = 60_000;
/** How many days past the requested date `reserveSlot` looks for alternatives. */
const ALTERNATIVE_SEARCH_DAYS = 14;
const MAX_ALTERNATIVES = 3;

/** A half-open `[start, end)` stretch of time in epoch milliseconds. */
interface Span {
  start: number;
  end: number;
}

/** The validated request every search starts from. */
interface Booking {
  readonly office: Office;
  readonly service: Service;
  /** Staff who may take the appointment: the requested one, or all who offer the service. */
  readonly staff: readonly Staff[];
  /** The last date inside the booking horizon. */
  readonly lastDate: string;
  /** Starts before this instant are inside the minimum lead time or already past. */
  readonly earliestStart: number;
}

interface Slot {
  readonly date: string;
  readonly time: string;
  readonly endTime: string;
  readonly startsAt: number;
  readonly endsAt: number;
  readonly staff: readonly Staff[];
}

/** An opening period of one date, by wall clock and as instants. */
interface OpeningSpan extends Span {
  readonly open: string;
  readonly close: string;
}

/** Occupied time per staff member: sorted, merged, disjoint spans. */
type Occupancy = ReadonlyMap<string, readonly Span[]>;

export function findOpenSlots(
  q: SlotQuery,
): Result<{ date: string; service: Service; slots: OpenSlot[] }, ScheduleRefusalCode> {
  const booking = validateBooking(q);
  if (!booking.ok) return booking;
  const occupancy = occupancyBetween(booking.value, q.date, addDays(q.date, 1), q.busy);
  const slots = slotsOn(booking.value, q.date, occupancy).map(toOpenSlot);
  return success({ date: q.date, service: booking.value.service, slots });
}

export function reserveSlot(
  q: SlotQuery & { start_time: string },
): Result<{ staff: Staff; service: Service; starts_at: Date; ends_at: Date }, ScheduleRefusalCode> {
  const validated = validateBooking(q);
  if (!validated.ok) return validated;
  const booking = validated.value;
  const { office, service } = booking;
  if (!LocalTime.safeParse(q.start_time).success) {
    return refusal('invalid_time', `"${q.start_time}" is not a time I understand; please use 24-hour HH:MM.`);
  }
  const startsAt = zonedToUtc(q.date, q.start_time, office.timezone).getTime();
  const endsAt = startsAt + service.duration_minutes * MINUTE_MS;
  const opening = openingSpans(office, q.date);
  if (!opening.some((p) => p.start <= startsAt && endsAt <= p.end)) {
    const hours = speakList(opening.map((p) => `${speakTime(p.open)} to ${speakTime(p.close)}`));
    return refusal(
      'outside_hours',
      `A ${service.duration_minutes}-minute ${speakService(service.id)} at ${speakTime(q.start_time)} ` +
        `does not fit in our hours on ${speakDate(q.date)}, which are ${hours}.`,
    );
  }
  if (startsAt < booking.earliestStart) return tooSoon(q, booking, startsAt);

  const sameDay = slotsOn(booking, q.date, occupancyBetween(booking, q.date, addDays(q.date, 1), q.busy));
  const chosen = sameDay.find((slot) => slot.time === q.start_time);
  const staff = chosen?.staff[0];
  if (staff !== undefined) {
    return success({ staff, service, starts_at: new Date(startsAt), ends_at: new Date(endsAt) });
  }

  const alternatives = nearestAlternatives(booking, q, sameDay, startsAt).map(toOpenSlot);
  const requestedStaff = q.staff_id === undefined ? undefined : booking.staff[0];
  const who = requestedStaff === undefined ? '' : ` with ${requestedStaff.name}`;
  const tail = alternatives.length === 0 ? ', and nothing nearby is open either' : '';
  return refusal(
    'slot_unavailable',
    `${speakTime(q.start_time)} on ${speakDate(q.date)} is not available for a ${speakService(service.id)}${who}${tail}.`,
    { alternatives },
  );
}

/**
 * The cells a booking occupies: the UTC ISO start of every `stepMinutes` cell of a fixed grid anchored
 * at the Unix epoch that `[starts_at, ends_at)` touches. Two overlapping intervals both touch the cell
 * holding the later start, so a unique (staff, cell) constraint rejects every double booking. Back-to-back
 * appointments share no cell only while slot starts sit on that grid, which holds when opening times
 * and the zone's UTC offset are whole multiples of the step (Chicago's whole-hour offsets with any step
 * that divides an hour and opening times on that step).
 */
export function slotCells(starts_at: Date, ends_at: Date, stepMinutes: number): string[] {
  const stepMs = stepMinutes * MINUTE_MS;
  const cells: string[] = [];
  for (
    let cell = Math.floor(starts_at.getTime() / stepMs) * stepMs;
    cell < ends_at.getTime();
    cell += stepMs
  ) {
    cells.push(new Date(cell).toISOString());
  }
  return cells;
}

function validateBooking(q: SlotQuery): Result<Booking, ScheduleRefusalCode> {
  const { office } = q;
  const service = office.services.find((s) => s.id === q.service);
  if (service === undefined) {
    const offered = speakList(office.services.map((s) => speakService(s.id)));
    return refusal('unknown_service', `We don't offer a service called "${q.service}"; we offer ${offered}.`);
  }
  const staff = staffFor(office, service, q.staff_id);
  if (!staff.ok) return staff;
  if (!isValidLocalDate(q.date)) {
    return refusal('invalid_date', `"${q.date}" is not a calendar date; please use YYYY-MM-DD.`);
  }
  const today = utcToZoned(q.now, office.timezone).date;
  if (q.date < today) return refusal('date_in_past', `${speakDate(q.date)} has already passed.`);
  const lastDate = addDays(today, office.scheduling.horizon_days);
  if (q.date > lastDate) {
    return refusal(
      'beyond_horizon',
      `We book at most ${office.scheduling.horizon_days} days ahead, so the latest date is ${speakDate(lastDate)}.`,
    );
  }
  const closed = closedReason(office, q.date);
  if (closed !== undefined) return refusal('office_closed', closed);
  const earliestStart = q.now.getTime() + office.scheduling.min_lead_minutes * MINUTE_MS;
  return success({ office, service, staff: staff.value, lastDate, earliestStart });
}

function staffFor(
  office: Office,
  service: Service,
  staffId: string | undefined,
): Result<readonly Staff[], ScheduleRefusalCode> {
  if (staffId === undefined) return success(office.staff.filter((s) => s.services.includes(service.id)));
  const member = office.staff.find((s) => s.id === staffId);
  if (member === undefined) {
    return refusal('unknown_staff', `There is no staff member with the id "${staffId}".`);
  }
  if (!member.services.includes(service.id)) {
    return refusal('service_not_offered', `${member.name} does not offer the ${speakService(service.id)}.`);
  }
  return success([member]);
}

function closedReason(office: Office, date: string): string | undefined {
  const holiday = office.holidays.find((h) => h.date === date);
  if (holiday !== undefined) return `The office is closed on ${speakDate(date)} for ${holiday.name}.`;
  const weekday = weekdayOf(date);
  if (office.hours[weekday].length === 0) {
    return `The office is closed on ${weekday.charAt(0).toUpperCase()}${weekday.slice(1)}s.`;
  }
  return undefined;
}

function tooSoon(
  q: SlotQuery & { start_time: string },
  booking: Booking,
  startsAt: number,
): Result<never, ScheduleRefusalCode> {
  const when = `${speakTime(q.start_time)} on ${speakDate(q.date)}`;
  const lead = booking.office.scheduling.min_lead_minutes;
  return startsAt < q.now.getTime()
    ? refusal('too_soon', `${when} has already passed.`)
    : refusal('too_soon', `${when} is too soon: appointments need at least ${lead} minutes' notice.`);
}

/** The date's opening periods as instants, in time order; none on a holiday. */
function openingSpans(office: Office, date: string): OpeningSpan[] {
  if (office.holidays.some((h) => h.date === date)) return [];
  return office.hours[weekdayOf(date)]
    .map(({ open, close }) => ({
      open,
      close,
      start: zonedToUtc(date, open, office.timezone).getTime(),
      end: zonedToUtc(date, close, office.timezone).getTime(),
    }))
    .sort((a, b) => a.start - b.start);
}

/** Open slots of one date, in time order. */
function slotsOn(booking: Booking, date: string, occupancy: Occupancy): Slot[] {
  const slots: Slot[] = [];
  for (const candidate of candidateStarts(booking, date)) {
    if (candidate.startsAt < booking.earliestStart) continue;
    const free = booking.staff.filter((s) => !overlapsAny(occupancy.get(s.id) ?? [], candidate));
    if (free.length === 0) continue;
    const { time, endTime, startsAt, endsAt } = candidate;
    slots.push({ date, time, endTime, startsAt, endsAt, staff: free });
  }
  return slots;
}

type Candidate = Omit<Slot, 'date' | 'staff'>;

/**
 * Every start the service could have on the date if nobody were busy, in time order, once each.
 * It depends only on the office, the service and the date, and every availability check and hold
 * needs it again, so it is kept per office (bounded): building it converts wall times to instants.
 */
const candidateMemo = new WeakMap<Office, Map<string, readonly Candidate[]>>();
const CANDIDATE_MEMO_LIMIT = 2_000;

function candidateStarts(booking: Booking, date: string): readonly Candidate[] {
  let perOffice = candidateMemo.get(booking.office);
  if (perOffice === undefined) {
    perOffice = new Map();
    candidateMemo.set(booking.office, perOffice);
  }
  const key = `${booking.service.id} ${date}`;
  let candidates = perOffice.get(key);
  if (candidates === undefined) {
    const seen = new Set<string>();
    const all: Candidate[] = [];
    for (const period of openingSpans(booking.office, date)) {
      for (const candidate of startsIn(booking, date, period)) {
        // Overlapping periods in the office's hours would offer the same start twice.
        if (seen.has(candidate.time)) continue;
        seen.add(candidate.time);
        all.push(Object.freeze(candidate));
      }
    }
    candidates = Object.freeze(all.sort((a, b) => a.startsAt - b.startsAt));
    if (perOffice.size >= CANDIDATE_MEMO_LIMIT) perOffice.clear();
    perOffice.set(key, candidates);
  }
  return candidates;
}

/**
 * Starts every `slot_step_minutes` of wall time from the period's open time for which the whole
 * service ends by the period's close. Lengths are real elapsed time, so across a clock change a
 * service still lasts its duration. Wall times skipped at spring-forward are not offered, and a
 * repeated fall-back time is offered once, at its earlier reading (see `zonedToUtc`), so that every
 * offered `start_time` names exactly one instant.
 */
function startsIn(booking: Booking, date: string, period: OpeningSpan): Candidate[] {
  const { office, service } = booking;
  const timeZone = office.timezone;
  const open = minutesOf(period.open);
  const close = minutesOf(period.close);
  // With no clock change inside the period wall minutes equal elapsed minutes and each start is
  // plain arithmetic; only a period that spans a change pays for converting every start.
  const steady = period.end - period.start === (close - open) * MINUTE_MS;
  const starts: Candidate[] = [];
  for (let minute = open; minute < close; minute += office.scheduling.slot_step_minutes) {
    const time = formatMinutes(minute);
    const startsAt = steady
      ? period.start + (minute - open) * MINUTE_MS
      : zonedToUtc(date, time, timeZone).getTime();
    const endsAt = startsAt + service.duration_minutes * MINUTE_MS;
    if (endsAt > period.end) break;
    if (steady) {
      starts.push({ time, endTime: formatMinutes(minute + service.duration_minutes), startsAt, endsAt });
    } else if (utcToZoned(new Date(startsAt), timeZone).time === time) {
      starts.push({ time, endTime: utcToZoned(new Date(endsAt), timeZone).time, startsAt, endsAt });
    }
  }
  return starts;
}

/**
 * Occupied time of the booking's staff between two office-local midnights: office-wide and personal
 * blocked periods plus busy intervals, filtered to the window once so each start is a binary search.
 */
function occupancyBetween(
  booking: Booking,
  fromDate: string,
  untilDate: string,
  busy: readonly BusyInterval[],
): Occupancy {
  const timeZone = booking.office.timezone;
  const windowStart = zonedToUtc(fromDate, '00:00', timeZone).getTime();
  const windowEnd = zonedToUtc(untilDate, '00:00', timeZone).getTime();
  const perStaff = new Map<string, Span[]>(booking.staff.map((s) => [s.id, []]));
  const officeWide: Span[] = [];
  for (const block of booking.office.blocked) {
    // Local date-times sort as strings, and wall time maps to instants in order.
    if (block.end <= `${fromDate}T00:00` || block.start >= `${untilDate}T00:00`) continue;
    const target = block.staff_id === undefined ? officeWide : perStaff.get(block.staff_id);
    if (target !== undefined) target.push(blockedSpan(block, timeZone));
  }
  for (const interval of busy) {
    const spans = perStaff.get(interval.staff_id);
    const start = interval.starts_at.getTime();
    const end = interval.ends_at.getTime();
    // An interval that occupies no time blocks nothing.
    if (spans !== undefined && start < end && start < windowEnd && end > windowStart) {
      spans.push({ start, end });
    }
  }
  return new Map([...perStaff].map(([id, spans]) => [id, mergeSpans([...officeWide, ...spans])]));
}

function blockedSpan(block: Office['blocked'][number], timeZone: string): Span {
  return {
    start: zonedToUtc(block.start.slice(0, 10), block.start.slice(11), timeZone).getTime(),
    end: zonedToUtc(block.end.slice(0, 10), block.end.slice(11), timeZone).getTime(),
  };
}

function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** Whether `[startsAt, endsAt)` overlaps any of the sorted, disjoint spans. */
function overlapsAny(
  spans: readonly Span[],
  { startsAt, endsAt }: { startsAt: number; endsAt: number },
): boolean {
  // The first span ending after the start is the only one that can overlap: later ones start later.
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans[mid]!.end <= startsAt) lo = mid + 1;
    else hi = mid;
  }
  const first = spans[lo];
  return first !== undefined && first.start < endsAt;
}

/**
 * Up to three open slots nearest the requested start: the same date first, ranked by distance with
 * ties going to the earlier, then following dates in order, up to 14 days on and within the horizon.
 */
function nearestAlternatives(
  booking: Booking,
  q: SlotQuery,
  sameDay: readonly Slot[],
  requested: number,
): Slot[] {
  const nearest = [...sameDay]
    .sort(
      (a, b) =>
        Math.abs(a.startsAt - requested) - Math.abs(b.startsAt - requested) || a.startsAt - b.startsAt,
    )
    .slice(0, MAX_ALTERNATIVES);
  const searchEnd = addDays(q.date, ALTERNATIVE_SEARCH_DAYS);
  // ISO dates compare correctly as strings.
  const lastDate = searchEnd < booking.lastDate ? searchEnd : booking.lastDate;
  if (nearest.length === MAX_ALTERNATIVES || lastDate <= q.date) return nearest;
  const occupancy = occupancyBetween(booking, addDays(q.date, 1), addDays(lastDate, 1), q.busy);
  for (
    let date = addDays(q.date, 1);
    date <= lastDate && nearest.length < MAX_ALTERNATIVES;
    date = addDays(date, 1)
  ) {
    nearest.push(...slotsOn(booking, date, occupancy).slice(0, MAX_ALTERNATIVES - nearest.length));
  }
  return nearest;
}

function toOpenSlot(slot: Slot): OpenSlot {
  return {
    date: slot.date,
    start_time: slot.time,
    end_time: slot.endTime,
    starts_at: isoInstant(slot.startsAt),
    ends_at: isoInstant(slot.endsAt),
    staff: slot.staff.map(staffRef),
  };
}

/**
 * The same few hundred slot instants are written out on every availability check, and `toISOString`
 * was a visible share of one; instants are immutable, so a bounded memo is safe.
 */
const isoInstants = new Map<number, string>();
const ISO_MEMO_LIMIT = 20_000;

function isoInstant(epochMs: number): string {
  let iso = isoInstants.get(epochMs);
  if (iso === undefined) {
    if (isoInstants.size >= ISO_MEMO_LIMIT) isoInstants.clear();
    iso = new Date(epochMs).toISOString();
    isoInstants.set(epochMs, iso);
  }
  return iso;
}

/** One frozen `{id, name}` per staff member, shared by every slot that lists them. */
const staffRefs = new WeakMap<Staff, { readonly id: string; readonly name: string }>();

function staffRef(member: Staff): { readonly id: string; readonly name: string } {
  let ref = staffRefs.get(member);
  if (ref === undefined) {
    ref = Object.freeze({ id: member.id, name: member.name });
    staffRefs.set(member, ref);
  }
  return ref;
}
