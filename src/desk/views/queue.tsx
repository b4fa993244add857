import type { FC } from 'hono/jsx';
import type { JsonValue } from '../../core/audit-chain.js';
import type { QueueItem } from '../../usecases/staff-desk.js';
import type { DeskSession } from '../session.js';
import { formatDate, formatInstant, KIND_LABELS } from './format.js';
import { FlashMessage, Layout, type Chrome, type Flash } from './layout.js';

const VERBS = {
  hold: { approve: 'Approve', reject: 'Reject' },
  cancellation: { approve: 'Approve cancellation', reject: 'Keep appointment' },
  escalation: { approve: 'Resolve', reject: 'Decline' },
} as const;

/** What the request is about, in a few words: used in headings and in the page's announcements. */
export function itemLabel(item: QueueItem): string {
  if (item.appointment) {
    const a = item.appointment;
    return `${a.client_name}, ${a.service_name}, ${formatDate(a.date)} ${a.start_time}`;
  }
  if (item.escalation) return `${item.escalation.action} (${item.escalation.urgency} urgency)`;
  return item.id;
}

function detailText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const CallerSaid: FC<{ text: string | null; label: string }> = ({ text, label }) =>
  text ? (
    <div class="said">
      <p class="said-label">{label}</p>
      <blockquote>{text}</blockquote>
    </div>
  ) : (
    <p class="said said-none">The caller gave no further words.</p>
  );

const AppointmentFacts: FC<{ item: QueueItem }> = ({ item }) => {
  const a = item.appointment!;
  return (
    <dl class="facts">
      <div>
        <dt>When</dt>
        <dd>
          {formatDate(a.date)}, {a.start_time}–{a.end_time}
        </dd>
      </div>
      <div>
        <dt>Service</dt>
        <dd>{a.service_name}</dd>
      </div>
      <div>
        <dt>With</dt>
        <dd>{a.staff_name}</dd>
      </div>
      <div>
        <dt>Contact</dt>
        <dd>
          {a.contact_kind === 'phone' ? 'Phone ' : 'E-mail '}
          {a.contact}
        </dd>
      </div>
      <div>
        <dt>Reference</dt>
        <dd>
          <code>{a.id}</code> ({a.status_text})
        </dd>
      </div>
    </dl>
  );
};

const EscalationFacts: FC<{ item: QueueItem }> = ({ item }) => {
  const e = item.escalation!;
  const details =
    e.details !== null && typeof e.details === 'object' && !Array.isArray(e.details)
      ? Object.entries(e.details)
      : e.details === null
        ? []
        : [['details', e.details] as const];
  return (
    <dl class="facts">
      <div>
        <dt>Asked for</dt>
        <dd>{e.action}</dd>
      </div>
      <div>
        <dt>Urgency</dt>
        <dd>
          <span class={`urgency urgency-${e.urgency}`}>{e.urgency}</span>
        </dd>
      </div>
      <div>
        <dt>Reference</dt>
        <dd>
          <code>{e.id}</code>
        </dd>
      </div>
      {details.map(([key, value]) => (
        <div>
          <dt>{key}</dt>
          <dd>{detailText(value)}</dd>
        </div>
      ))}
    </dl>
  );
};

export const QueueCard: FC<{ item: QueueItem; session: DeskSession; timeZone: string }> = ({
  item,
  session,
  timeZone,
}) => {
  const verbs = VERBS[item.kind];
  const label = itemLabel(item);
  const title =
    item.kind === 'escalation'
      ? (item.escalation?.action ?? item.id)
      : `${item.appointment?.client_name ?? item.id}`;
  const noteId = `note-${item.id}`;
  const titleId = `title-${item.id}`;
  const id = encodeURIComponent(item.id);
  return (
    <li class={`card kind-${item.kind}`} id={`item-${item.id}`} data-id={item.id}>
      <article aria-labelledby={titleId}>
        <header class="card-head">
          <span class={`badge badge-${item.kind}`}>{KIND_LABELS[item.kind]}</span>
          <h3 id={titleId}>{title}</h3>
          <p class="received">
            Received <time datetime={item.created_at}>{formatInstant(item.created_at, timeZone)}</time>
          </p>
        </header>
        {item.appointment ? <AppointmentFacts item={item} /> : null}
        {item.escalation ? <EscalationFacts item={item} /> : null}
        <CallerSaid
          text={
            item.kind === 'escalation' ? (item.escalation?.summary ?? item.caller_said) : item.caller_said
          }
          label={
            item.kind === 'cancellation'
              ? 'Reason the caller gave'
              : item.kind === 'escalation'
                ? 'In the caller’s words'
                : 'Caller’s notes'
          }
        />
        <form
          class="decision"
          method="post"
          action={`/desk/approvals/${id}/decision`}
          data-api={`/desk/api/approvals/${id}/decision`}
          data-label={label}
        >
          <input type="hidden" name="csrf_token" value={session.csrfToken} />
          <label for={noteId}>Note for the record (optional)</label>
          <textarea id={noteId} name="note" rows={2} maxlength={1000}></textarea>
          <div class="actions">
            <button
              type="submit"
              name="decision"
              value="approve"
              class="approve"
              aria-label={`${verbs.approve}: ${label}`}
            >
              {verbs.approve}
            </button>
            <button
              type="submit"
              name="decision"
              value="reject"
              class="reject"
              aria-label={`${verbs.reject}: ${label}`}
            >
              {verbs.reject}
            </button>
          </div>
        </form>
      </article>
    </li>
  );
};

/** The part of the queue page the script reloads when the queue changes. */
export const QueueBody: FC<{ items: readonly QueueItem[]; session: DeskSession; timeZone: string }> = ({
  items,
  session,
  timeZone,
}) => (
  <div id="queue-body" data-count={String(items.length)}>
    {items.length === 0 ? (
      <p class="empty">Nothing is waiting. New holds, cancellations and escalations appear here at once.</p>
    ) : null}
    <ul class="queue" aria-label="Requests waiting for a decision">
      {items.map((item) => (
        <QueueCard item={item} session={session} timeZone={timeZone} />
      ))}
    </ul>
  </div>
);

export const QueuePage: FC<{
  chrome: Chrome;
  session: DeskSession;
  items: readonly QueueItem[];
  timeZone: string;
  flash?: Flash | undefined;
}> = ({ chrome, session, items, timeZone, flash }) => (
  <Layout chrome={chrome} title={`Queue (${items.length})`} session={session} section="queue">
    <section id="queue" aria-labelledby="queue-title">
      <div class="section-head">
        <h1 id="queue-title" tabindex={-1}>
          Waiting for a decision{' '}
          <span class="count" data-queue-count>
            {String(items.length)}
          </span>
        </h1>
        <p class="live" id="live-state" data-state="offline">
          Updates live
        </p>
      </div>
      <p class="hint">
        Nothing a caller’s assistant did is binding until you decide it here. Your name goes on the audit
        trail with each decision.
      </p>
      <FlashMessage flash={flash} />
      <QueueBody items={items} session={session} timeZone={timeZone} />
    </section>
  </Layout>
);
