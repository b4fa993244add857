import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OfficeSchema } from '../../src/core/office.js';

const bundled = JSON.parse(
  readFileSync(new URL('../../data/office.json', import.meta.url), 'utf8'),
) as Record<string, unknown> & {
  staff: { id: string }[];
  services: { id: string; duration_minutes: number }[];
};

const messagesFor = (office: unknown) => {
  const parsed = OfficeSchema.safeParse(office);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('office schema', () => {
  it('accepts the bundled office', () => {
    expect(messagesFor(bundled)).toEqual([]);
  });

  it('rejects an unknown time zone', () => {
    expect(messagesFor({ ...bundled, timezone: 'Mars/Olympus_Mons' })).toContain('unknown IANA time zone');
  });

  it('rejects a blocked period for a staff member who does not exist', () => {
    const blocked = [{ staff_id: 'nobody', start: '2026-09-16T09:00', end: '2026-09-16T10:00', reason: 'x' }];
    expect(messagesFor({ ...bundled, blocked })).toContain('blocked period names unknown staff "nobody"');
  });

  it('rejects a blocked period that ends before it starts', () => {
    const blocked = [{ start: '2026-09-16T10:00', end: '2026-09-16T09:00', reason: 'x' }];
    expect(messagesFor({ ...bundled, blocked })).toContain('blocked period must end after it starts');
  });

  it('rejects duplicate staff ids', () => {
    expect(messagesFor({ ...bundled, staff: [...bundled.staff, bundled.staff[0]] })).toContain(
      'duplicate staff id',
    );
  });

  it('rejects a service whose duration is not whole slot steps', () => {
    const services = bundled.services.map((s, i) => (i === 0 ? { ...s, duration_minutes: 40 } : s));
    expect(messagesFor({ ...bundled, services })).toContain(
      'consultation duration is not a multiple of the slot step',
    );
  });

  it('rejects opening times off the slot grid, which would break the double-booking cells', () => {
    const hours = { ...(bundled.hours as object), monday: [{ open: '09:10', close: '17:00' }] };
    expect(messagesFor({ ...bundled, hours })).toContain('monday opening time must fall on a 15-minute step');
  });

  it('rejects an opening period that closes before it opens', () => {
    const hours = { ...(bundled.hours as object), monday: [{ open: '17:00', close: '09:00' }] };
    expect(messagesFor({ ...bundled, hours })).toContain('open must be before close');
  });

  it('rejects staff offering a service the office does not define', () => {
    const services = bundled.services.filter((s) => s.id !== 'policy_review');
    expect(
      messagesFor({ ...bundled, services }).some((m) => m.includes('offers undefined service policy_review')),
    ).toBe(true);
  });
});
