import type { FC } from 'hono/jsx';
import type { CalendarView } from '../../core/desk-calendar.js';
import type { CalendarDay } from '../../usecases/staff-desk.js';
import type { DeskSession } from '../session.js';
import { formatDate, formatDayHeading } from './format.js';
import { Layout, type Chrome } from './layout.js';

const STATUS_LABELS: Readonly<Record<string, string>> = {
  pending_approval: 'Hold, awaiting approval',
  confirmed: 'Confirmed',
  cancel_requested: 'Cancellation requested',
};

export const CalendarPage: FC<{
  chrome: Chrome;
  session: DeskSession;
  view: CalendarView;
  days: readonly CalendarDay[];
  today: string;
  previous: string;
  next: string;
}> = ({ chrome, session, view, days, today, previous, next }) => {
  const first = days[0]!.date;
  const heading =
    view === 'today' ? formatDate(first) : `Week of ${formatDate(first)} to ${formatDate(days.at(-1)!.date)}`;
  const total = days.reduce((n, d) => n + d.entries.length, 0);
  return (
    <Layout chrome={chrome} title={heading} session={session} section="calendar">
      <section aria-labelledby="calendar-title">
        <div class="section-head">
          <h1 id="calendar-title">{heading}</h1>
          <nav aria-label="Calendar views" class="tabs">
            <a href="/desk/calendar?view=today" aria-current={view === 'today' ? 'page' : undefined}>
              Day
            </a>
            <a href="/desk/calendar?view=week" aria-current={view === 'week' ? 'page' : undefined}>
              Week
            </a>
          </nav>
        </div>
        <nav aria-label="Move through the calendar" class="pager">
          <a href={`/desk/calendar?view=${view}&date=${previous}`}>
            {view === 'today' ? 'Previous day' : 'Previous week'}
          </a>
          <a href={`/desk/calendar?view=${view}&date=${today}`}>Today</a>
          <a href={`/desk/calendar?view=${view}&date=${next}`}>
            {view === 'today' ? 'Next day' : 'Next week'}
          </a>
        </nav>
        <p class="hint">
          {total === 0
            ? 'Nothing booked or held.'
            : `${total} appointment${total === 1 ? '' : 's'}, holds included.`}
        </p>
        <div class={`calendar calendar-${view}`}>
          {days.map((day) => (
            <section class={`day${day.date === today ? ' today' : ''}`} aria-labelledby={`day-${day.date}`}>
              <h2 id={`day-${day.date}`}>
                {formatDayHeading(day.date)}
                {day.date === today ? <span class="today-mark"> (today)</span> : null}
              </h2>
              {day.entries.length === 0 ? (
                <p class="free">Free</p>
              ) : (
                <ol class="entries">
                  {day.entries.map((entry) => (
                    <li class={`entry status-${entry.status}`}>
                      <span class="time">
                        {entry.start_time}–{entry.end_time}
                      </span>
                      <span class="who">{entry.client_name}</span>
                      <span class="what">
                        {entry.service_name} with {entry.staff_name}
                      </span>
                      <span class={`status status-${entry.status}`}>
                        {STATUS_LABELS[entry.status] ?? entry.status_text}
                      </span>
                      <code class="ref">{entry.id}</code>
                    </li>
                  ))}
                </ol>
              )}
            </section>
          ))}
        </div>
      </section>
    </Layout>
  );
};
