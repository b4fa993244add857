import { z } from 'zod';

/** Office-local wall-clock time, 24 h, e.g. `09:30`. */
export const LocalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM (24 h)');
/** Office-local calendar date, e.g. `2026-09-16`. */
export const LocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
/** Office-local date and time without zone, e.g. `2026-09-16T12:00`. */
export const LocalDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/, 'expected YYYY-MM-DDTHH:MM');

export const SERVICE_IDS = ['consultation', 'policy_review', 'quote_walkthrough'] as const;
export const ServiceId = z.enum(SERVICE_IDS);
export type ServiceId = z.infer<typeof ServiceId>;

export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const OpeningPeriod = z
  .object({ open: LocalTime, close: LocalTime })
  .refine((p) => minutesOf(p.open) < minutesOf(p.close), 'open must be before close');

const TimeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'unknown IANA time zone');

export const OfficeSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    name: z.string().min(1),
    timezone: TimeZone,
    address: z.object({
      street: z.string().min(1),
      city: z.string().min(1),
      state: z.string().length(2),
      postal_code: z.string().min(1),
    }),
    phone: z.string().min(1),
    email: z.email(),
    website: z.url().optional(),
    /** Opening periods per weekday; an empty list means closed that day. */
    hours: z.object(
      Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(OpeningPeriod)])) as {
        [K in Weekday]: z.ZodArray<typeof OpeningPeriod>;
      },
    ),
    holidays: z.array(z.object({ date: LocalDate, name: z.string().min(1) })),
    /** Blocked time: office-wide when `staff_id` is absent, else for that staff member only. */
    blocked: z.array(
      z
        .object({
          staff_id: z.string().optional(),
          start: LocalDateTime,
          end: LocalDateTime,
          reason: z.string().min(1),
        })
        .refine((b) => b.start < b.end, 'blocked period must end after it starts'),
    ),
    services: z.array(
      z.object({
        id: ServiceId,
        name: z.string().min(1),
        duration_minutes: z.number().int().positive(),
        description: z.string().min(1),
      }),
    ),
    staff: z.array(
      z.object({
        id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/),
        name: z.string().min(1),
        title: z.string().min(1),
        services: z.array(ServiceId).min(1),
      }),
    ),
    scheduling: z.object({
      slot_step_minutes: z.number().int().positive(),
      horizon_days: z.number().int().positive(),
      min_lead_minutes: z.number().int().nonnegative(),
    }),
  })
  .superRefine((office, ctx) => {
    const staffIds = new Set(office.staff.map((s) => s.id));
    const serviceIds = new Set(office.services.map((s) => s.id));
    for (const b of office.blocked) {
      if (b.staff_id !== undefined && !staffIds.has(b.staff_id)) {
        ctx.addIssue({ code: 'custom', message: `blocked period names unknown staff "${b.staff_id}"` });
      }
    }
    for (const s of office.staff) {
      for (const svc of s.services) {
        if (!serviceIds.has(svc))
          ctx.addIssue({ code: 'custom', message: `${s.id} offers undefined service ${svc}` });
      }
    }
    if (staffIds.size !== office.staff.length)
      ctx.addIssue({ code: 'custom', message: 'duplicate staff id' });
    const step = office.scheduling.slot_step_minutes;
    for (const day of WEEKDAYS) {
      for (const period of office.hours[day]) {
        // Slot starts must sit on the cell grid the double-booking constraint uses (see slotCells).
        if (minutesOf(period.open) % step !== 0) {
          ctx.addIssue({ code: 'custom', message: `${day} opening time must fall on a ${step}-minute step` });
        }
      }
    }
    for (const svc of office.services) {
      // Slot cells are the unit of the double-booking constraint, so every duration must be whole cells.
      if (svc.duration_minutes % office.scheduling.slot_step_minutes !== 0) {
        ctx.addIssue({ code: 'custom', message: `${svc.id} duration is not a multiple of the slot step` });
      }
    }
  });

export type Office = z.infer<typeof OfficeSchema>;
export type Staff = Office['staff'][number];
export type Service = Office['services'][number];
