import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { CALENDAR_VIEWS, calendarNeighbours } from '../../core/desk-calendar.js';
import { isValidLocalDate } from '../../core/local-time.js';
import { REFERENCE_ID_PATTERN } from '../../core/reference-ids.js';
import type { AuditQuery } from '../../usecases/staff-desk.js';
import { CSRF_FIELD, originAllowed, tokensMatch } from '../csrf.js';
import { csvRow } from '../csv.js';
import type { DeskServices } from '../services.js';
import { fullPage } from '../render.js';
import type { DeskEnv } from '../session.js';
import { AuditPage } from '../views/audit.js';
import { CalendarPage } from '../views/calendar.js';
import { ErrorPage } from '../views/error.js';
import type { Flash } from '../views/layout.js';
import { itemLabel, QueueBody, QueuePage } from '../views/queue.js';
import { DECISION_STATUS, MAX_NOTE_LENGTH } from './api.js';
import { readFormBody } from '../../http/forms.js';

const AUDIT_PAGE_SIZE = 100;

const LocalDate = z.string().refine(isValidLocalDate, 'use YYYY-MM-DD');
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const AuditParams = z.object({
  action: optional(z.string().max(64)),
  actor: optional(z.string().max(128)),
  target: optional(z.string().max(64)),
  from: optional(LocalDate),
  to: optional(LocalDate),
  before: optional(z.coerce.number().int().positive()),
  check: optional(z.literal('1')),
});

const CalendarParams = z.object({
  view: optional(z.enum(CALENDAR_VIEWS)),
  date: optional(LocalDate),
});

const DecisionForm = z.object({
  decision: z.enum(['approve', 'reject']),
  note: z.string().max(MAX_NOTE_LENGTH).optional(),
});

const PAST_TENSE = {
  approved: 'approved',
  rejected: 'rejected',
  resolved: 'resolved',
  declined: 'declined',
  withdrawn: 'withdrawn',
  expired: 'expired',
  pending: 'still pending',
  open: 'still open',
} as const;

/** Pages for signed-in staff: the queue, decisions from plain forms, the calendar and the audit trail. */
export function pageRoutes(services: DeskServices): Hono<DeskEnv> {
  const routes = new Hono<DeskEnv>();
  const { sessions, desk, chrome, ctx } = services;
  const timeZone = ctx.data.office.timezone;
  const page = sessions.requirePage();

  /** Forms: the hidden csrf_token must be the session's. */
  const formCsrf: MiddlewareHandler<DeskEnv> = async (c, next) => {
    const form = await readFormBody(c);
    const ok =
      originAllowed(c.req.raw, services.publicOrigins) &&
      tokensMatch(form[CSRF_FIELD], c.get('session').csrfToken);
    if (!ok) {
      return c.html(
        fullPage(
          <ErrorPage
            chrome={chrome}
            session={c.get('session')}
            title="This form expired"
            message="The page was open too long or came from somewhere else. Go back, reload and try again."
          />,
        ),
        403,
      );
    }
    return next();
  };

  const queuePage = async (c: Context<DeskEnv>, status: 200 | 400 | 404 | 409, flash?: Flash) =>
    c.html(
      fullPage(
        <QueuePage
          chrome={chrome}
          session={c.get('session')}
          items={await desk.queue()}
          timeZone={timeZone}
          flash={flash}
        />,
      ),
      status,
    );

  routes.get('/', page, async (c) => {
    // After a decision from a plain form: say what happened, from the record, not from the URL.
    const decided = c.req.query('decided');
    let flash: Flash | undefined;
    if (decided && REFERENCE_ID_PATTERN.test(decided)) {
      const item = await desk.request(decided);
      if (item?.decided_by_name) {
        flash = {
          kind: 'ok',
          text: `${itemLabel(item)}: ${PAST_TENSE[item.status]} by ${item.decided_by_name}.`,
        };
      }
    }
    return queuePage(c, 200, flash);
  });

  routes.get('/partials/queue', sessions.requireApi(), async (c) =>
    c.html(<QueueBody items={await desk.queue()} session={c.get('session')} timeZone={timeZone} />),
  );

  routes.post('/approvals/:id/decision', page, formCsrf, async (c) => {
    const id = c.req.param('id');
    const form = DecisionForm.safeParse(await readFormBody(c));
    if (!form.success) {
      return queuePage(c, 400, {
        kind: 'error',
        text: 'Choose approve or reject; notes are limited to 1000 characters.',
      });
    }
    const session = c.get('session');
    const decided = await desk.decide(
      id,
      form.data.decision,
      { account: session.username, name: session.displayName },
      form.data.note,
    );
    if (!decided.ok)
      return queuePage(c, DECISION_STATUS[decided.error.code], {
        kind: 'error',
        text: decided.error.message,
      });
    return c.redirect(`/desk?decided=${encodeURIComponent(decided.value.id)}`, 303);
  });

  routes.get('/calendar', page, async (c) => {
    const params = CalendarParams.safeParse(c.req.query());
    const today = desk.today();
    const view = params.success ? (params.data.view ?? 'today') : 'today';
    const date = params.success ? (params.data.date ?? today) : today;
    const { previous, next } = calendarNeighbours(view, date);
    return c.html(
      fullPage(
        <CalendarPage
          chrome={chrome}
          session={c.get('session')}
          view={view}
          days={await desk.calendar(view, date)}
          today={today}
          previous={previous}
          next={next}
        />,
      ),
      params.success ? 200 : 400,
    );
  });

  routes.get('/audit', page, async (c) => {
    const params = AuditParams.safeParse(c.req.query());
    const query: AuditQuery = params.success
      ? {
          action: params.data.action,
          actor: params.data.actor,
          target: params.data.target,
          from: params.data.from,
          to: params.data.to,
        }
      : {};
    const entries = await desk.audit({
      ...query,
      beforeSeq: params.success ? params.data.before : undefined,
      limit: AUDIT_PAGE_SIZE,
    });
    const verdict = params.success && params.data.check ? await desk.verifyAudit() : undefined;
    return c.html(
      fullPage(
        <AuditPage
          chrome={chrome}
          session={c.get('session')}
          query={query}
          entries={entries}
          pageSize={AUDIT_PAGE_SIZE}
          timeZone={timeZone}
          verdict={verdict}
          error={
            params.success
              ? undefined
              : 'Some filters were not understood and were ignored; dates are YYYY-MM-DD.'
          }
        />,
      ),
      params.success ? 200 : 400,
    );
  });

  routes.get('/audit.csv', page, (c) => {
    const params = AuditParams.safeParse(c.req.query());
    if (!params.success) return c.text('Some filters were not understood; dates are YYYY-MM-DD.', 400);
    const { action, actor, target, from, to } = params.data;
    const pages = desk.auditAll({ action, actor, target, from, to });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          encoder.encode(
            csvRow([
              'seq',
              'at',
              'actor_kind',
              'actor_id',
              'actor_name',
              'action',
              'target_type',
              'target_id',
              'details',
              'prev_hash',
              'hash',
            ]),
          ),
        );
      },
      async pull(controller) {
        const next = await pages.next();
        if (next.done) {
          controller.close();
          return;
        }
        const rows = next.value.map((e) =>
          csvRow([
            e.seq,
            e.at,
            e.actor_kind,
            e.actor_id,
            e.actor_name,
            e.action,
            e.target_type,
            e.target_id,
            JSON.stringify(e.details),
            e.prev_hash,
            e.hash,
          ]),
        );
        controller.enqueue(encoder.encode(rows.join('')));
      },
      async cancel() {
        await pages.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="holddesk-audit-${desk.today()}.csv"`,
      },
    });
  });

  return routes;
}
