import { WEEKDAYS } from '../core/office.js';
import { speakTime } from '../core/spoken.js';
import type { OfficeData } from '../office-data.js';

/** A plain-text summary of the office a person can eyeball after editing the data files. */
export function summariseOfficeData({ office, faq, rates }: OfficeData): string {
  const hours = WEEKDAYS.map((day) => {
    const periods = office.hours[day];
    const text = periods.length === 0 ? 'closed' : periods.map((p) => `${p.open}-${p.close}`).join(', ');
    return `  ${day.padEnd(10)} ${text}`;
  });
  const services = office.services.map(
    (s) => `  ${s.id.padEnd(18)} ${String(s.duration_minutes).padStart(3)} min  ${s.name}`,
  );
  const staff = office.staff.map(
    (s) => `  ${s.id.padEnd(18)} ${s.name} (${s.title}): ${s.services.join(', ')}`,
  );
  const { slot_step_minutes, horizon_days, min_lead_minutes } = office.scheduling;
  const { street, city, state, postal_code } = office.address;
  return [
    `${office.name} (${office.id})`,
    `  ${street}, ${city}, ${state} ${postal_code} · ${office.phone} · ${office.email}`,
    `  time zone ${office.timezone}`,
    'Opening hours:',
    ...hours,
    `Holidays: ${office.holidays.length}; blocked periods: ${office.blocked.length} ` +
      `(${office.blocked.filter((b) => b.staff_id === undefined).length} office-wide)`,
    'Services:',
    ...services,
    'Staff:',
    ...staff,
    `Scheduling: ${slot_step_minutes}-minute steps, ${horizon_days} days ahead, ` +
      `at least ${min_lead_minutes} minutes' notice (earliest opening ${speakTime(
        WEEKDAYS.flatMap((d) => office.hours[d].map((p) => p.open)).sort()[0] ?? '00:00',
      )})`,
    `FAQ: ${faq.entries.length} entries`,
    `Quote ranges: ${Object.keys(rates.states).length} states (${Object.keys(rates.states).join(', ')}), ` +
      `dwelling coverage $${rates.dwelling_coverage.min.toLocaleString('en-US')}-` +
      `$${rates.dwelling_coverage.max.toLocaleString('en-US')}`,
    'All data files are valid.',
  ].join('\n');
}
