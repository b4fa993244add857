import type { FC } from 'hono/jsx';
import type { ChainedEntry, ChainVerdict } from '../../core/audit-chain.js';
import type { AuditQuery } from '../../usecases/staff-desk.js';
import type { DeskSession } from '../session.js';
import { formatInstant } from './format.js';
import { Layout, type Chrome } from './layout.js';

/** The actions the trail records, for the filter's suggestions. */
export const KNOWN_ACTIONS = [
  'hold.placed',
  'hold.approved',
  'hold.rejected',
  'hold.expired',
  'cancellation.requested',
  'cancellation.approved',
  'cancellation.rejected',
  'escalation.opened',
  'escalation.resolved',
  'escalation.declined',
  'staff.added',
  'staff.disabled',
  'staff.password_reset',
] as const;

/** The query string of a filter, for links that keep it (older page, CSV export). */
export function auditQueryString(query: AuditQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (query.action) params.set('action', query.action);
  if (query.actor) params.set('actor', query.actor);
  if (query.target) params.set('target', query.target);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

const Verdict: FC<{ verdict: ChainVerdict }> = ({ verdict }) =>
  verdict.intact ? (
    <p class="flash flash-ok" role="status">
      The audit trail is intact: {String(verdict.entries)} entries, each linked to the one before. Head{' '}
      <code>{verdict.head.slice(0, 16)}…</code>
    </p>
  ) : (
    <p class="flash flash-error" role="alert">
      The audit trail is broken at entry {String(verdict.broken_at_seq)}: {verdict.reason}. Entries checked
      before the break: {String(verdict.entries)}.
    </p>
  );

export const AuditPage: FC<{
  chrome: Chrome;
  session: DeskSession;
  query: AuditQuery;
  entries: readonly ChainedEntry[];
  pageSize: number;
  timeZone: string;
  verdict?: ChainVerdict | undefined;
  error?: string | undefined;
}> = ({ chrome, session, query, entries, pageSize, timeZone, verdict, error }) => {
  const last = entries.at(-1);
  return (
    <Layout chrome={chrome} title="Audit trail" session={session} section="audit">
      <section aria-labelledby="audit-title">
        <div class="section-head">
          <h1 id="audit-title">Audit trail</h1>
          <div class="head-actions">
            <a class="button quiet" href={`/desk/audit${auditQueryString(query, { check: '1' })}`}>
              Check the chain
            </a>
            <a class="button" href={`/desk/audit.csv${auditQueryString(query)}`} download>
              Download CSV
            </a>
          </div>
        </div>
        <p class="hint">
          Append-only and hash-chained: every entry’s hash covers the one before, so any edit shows.
        </p>
        {verdict ? <Verdict verdict={verdict} /> : null}
        {error ? (
          <p class="flash flash-error" role="alert">
            {error}
          </p>
        ) : null}
        <form method="get" action="/desk/audit" class="filters" aria-label="Filter the audit trail">
          <div class="field">
            <label for="f-action">Action</label>
            <input id="f-action" name="action" list="actions" value={query.action ?? ''} maxlength={64} />
            <datalist id="actions">
              {KNOWN_ACTIONS.map((a) => (
                <option value={a} />
              ))}
            </datalist>
          </div>
          <div class="field">
            <label for="f-actor">Actor</label>
            <input
              id="f-actor"
              name="actor"
              value={query.actor ?? ''}
              maxlength={128}
              placeholder="staff username or caller"
            />
          </div>
          <div class="field">
            <label for="f-target">Target</label>
            <input
              id="f-target"
              name="target"
              value={query.target ?? ''}
              maxlength={64}
              placeholder="APT-…, ESC-…"
            />
          </div>
          <div class="field">
            <label for="f-from">From</label>
            <input id="f-from" name="from" type="date" value={query.from ?? ''} />
          </div>
          <div class="field">
            <label for="f-to">To</label>
            <input id="f-to" name="to" type="date" value={query.to ?? ''} />
          </div>
          <div class="field field-actions">
            <button type="submit" class="primary">
              Filter
            </button>
            <a href="/desk/audit" class="button quiet">
              Clear
            </a>
          </div>
        </form>
        {entries.length === 0 ? (
          <p class="empty">No entries match.</p>
        ) : (
          <div class="table-wrap" tabindex={0} role="region" aria-label="Audit entries">
            <table class="audit">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr>
                    <td>{String(e.seq)}</td>
                    <td>
                      <time datetime={e.at}>{formatInstant(e.at, timeZone)}</time>
                    </td>
                    <td>
                      <span class={`actor actor-${e.actor_kind}`}>{e.actor_kind}</span>{' '}
                      {e.actor_name ? `${e.actor_name} (${e.actor_id})` : e.actor_id}
                    </td>
                    <td>
                      <code>{e.action}</code>
                    </td>
                    <td>
                      <code>{e.target_id}</code>
                    </td>
                    <td class="details">{JSON.stringify(e.details)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {last && entries.length === pageSize && last.seq > 1 ? (
          <nav class="pager" aria-label="Audit pages">
            <a href={`/desk/audit${auditQueryString(query, { before: String(last.seq) })}`}>Older entries</a>
          </nav>
        ) : null}
      </section>
    </Layout>
  );
};
