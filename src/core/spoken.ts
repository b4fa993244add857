/**
 * Voice-first phrasing. Every tool result carries a `spoken_summary` that a speaker reads aloud, so
 * these stay short, name the reference id, never list more than three options, and say times the way
 * a receptionist would ("2:30 PM", "noon"), not as `14:30`.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The most options read aloud at once: more is lost on a listener. */
export const MAX_SPOKEN_OPTIONS = 3;

/** `14:30` -> `2:30 PM`, `09:00` -> `9 AM`, `12:00` -> `noon`, `00:00` -> `midnight`. */
export function speakTime(hhmm: string): string {
  const hours = Number(hhmm.slice(0, 2));
  const minutes = hhmm.slice(3, 5);
  if (minutes === '00' && hours === 12) return 'noon';
  if (minutes === '00' && hours === 0) return 'midnight';
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const suffix = hours < 12 ? 'AM' : 'PM';
  return minutes === '00' ? `${hour12} ${suffix}` : `${hour12}:${minutes} ${suffix}`;
}

/** `2026-09-16` -> `Wednesday, September 16`. */
export function speakDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return `${DAYS[weekday]}, ${MONTHS[month - 1]} ${day}`;
}

/** `['a','b','c']` -> `a, b and c`. */
export function speakList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A service id as words: `policy_review` -> `policy review`. */
export function speakService(serviceId: string): string {
  return serviceId.replaceAll('_', ' ');
}

export function speakOpenings(date: string, serviceId: string, startTimes: readonly string[]): string {
  const service = speakService(serviceId);
  const day = speakDate(date);
  if (startTimes.length === 0) return `I don't see any openings for a ${service} on ${day}.`;
  const spoken = startTimes.slice(0, MAX_SPOKEN_OPTIONS).map(speakTime);
  const more = startTimes.length - spoken.length;
  const tail = more > 0 ? `, and ${more} more` : '';
  return `For a ${service} on ${day}, I have ${speakList(spoken)}${tail}. Which time works for you?`;
}

export function speakAlternatives(alternatives: readonly { date: string; start_time: string }[]): string {
  if (alternatives.length === 0) return 'That time was just taken, and I see nothing close to it.';
  const options = alternatives
    .slice(0, MAX_SPOKEN_OPTIONS)
    .map((a) => `${speakDate(a.date)} at ${speakTime(a.start_time)}`);
  return `That time was just taken. The nearest openings are ${speakList(options)}.`;
}

export function speakHold(hold: {
  id: string;
  service: string;
  date: string;
  start_time: string;
  staff_name: string;
}): string {
  return (
    `I've placed a hold for a ${speakService(hold.service)} on ${speakDate(hold.date)} at ` +
    `${speakTime(hold.start_time)} with ${hold.staff_name}. It is not a booking yet: a staff member ` +
    `will confirm it. Your reference is ${hold.id}.`
  );
}

export function speakAppointmentStatus(appointment: {
  id: string;
  status: string;
  service: string;
  date: string;
  start_time: string;
}): string {
  const when = `${speakService(appointment.service)} on ${speakDate(appointment.date)} at ${speakTime(appointment.start_time)}`;
  switch (appointment.status) {
    case 'pending_approval':
      return `Your ${when} is on hold and waiting for staff approval. It is not confirmed yet. Reference ${appointment.id}.`;
    case 'confirmed':
      return `Good news: your ${when} is confirmed by staff. Reference ${appointment.id}.`;
    case 'rejected':
      return `I'm sorry, staff could not confirm your ${when}. Would you like to look for another time? Reference ${appointment.id}.`;
    case 'expired':
      return `The hold for your ${when} expired before staff could confirm it. Reference ${appointment.id}.`;
    case 'cancel_requested':
      return `Your cancellation request for the ${when} is waiting for staff. The time is kept until they decide. Reference ${appointment.id}.`;
    default:
      return `Your ${when} is cancelled. Reference ${appointment.id}.`;
  }
}

export function speakCancellationRequested(id: string): string {
  return `I've asked staff to cancel appointment ${id}. It stays on the calendar until a staff member approves the cancellation.`;
}

export function speakEscalation(id: string): string {
  return `I've passed this to a person at the office. They will follow up with you. Your reference is ${id}.`;
}
