import type { FC } from 'hono/jsx';
import type { CallView, DeviceView, TranscriptLineView } from '../../gateway/views.js';
import type { DeskSession } from '../session.js';
import { FlashMessage, Layout, type Chrome, type Flash } from './layout.js';

export interface LiveCall {
  readonly call: CallView;
  readonly transcript: readonly TranscriptLineView[];
}

function duration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/**
 * The live calls and their recent transcript: the part the page script reloads every few seconds.
 * Hang-up and transfer are plain forms, so they work without the script too; the gateway decides
 * who may act on which call.
 */
export const CallsBody: FC<{
  calls: readonly LiveCall[];
  devices: readonly DeviceView[];
  session: DeskSession;
}> = ({ calls, devices, session }) => (
  <div id="calls-body" data-count={String(calls.length)}>
    {calls.length === 0 ? (
      <p class="empty">No calls are in progress.</p>
    ) : (
      <ul class="calls">
        {calls.map(({ call, transcript }) => (
          <li data-call-id={call.call_id}>
            <h2>
              {call.number} <span class="call-status">{call.status.replace(/_/g, ' ')}</span>
            </h2>
            <dl class="facts">
              <div>
                <dt>Placed by</dt>
                <dd>{call.placed_by}</dd>
              </div>
              <div>
                <dt>Intent</dt>
                <dd>{call.intent ?? '—'}</dd>
              </div>
              <div>
                <dt>Duration</dt>
                <dd>{duration(call.duration_seconds)}</dd>
              </div>
              <div>
                <dt>On hold</dt>
                <dd class="hold-time">{duration(call.hold_seconds)}</dd>
              </div>
            </dl>
            {transcript.length > 0 ? (
              <ol class="transcript" aria-label="Transcript">
                {transcript.map((line) => (
                  <li>
                    <span class="speaker">{line.speaker}:</span> {line.text}
                  </li>
                ))}
              </ol>
            ) : (
              <p class="said-none">Nothing heard yet.</p>
            )}
            <div class="actions">
              <form method="post" action={`/desk/calls/${encodeURIComponent(call.call_id)}/hangup`}>
                <input type="hidden" name="csrf_token" value={session.csrfToken} />
                <button type="submit">Hang up</button>
              </form>
              {devices.length > 0 ? (
                <form method="post" action={`/desk/calls/${encodeURIComponent(call.call_id)}/transfer`}>
                  <input type="hidden" name="csrf_token" value={session.csrfToken} />
                  <label>
                    To{' '}
                    <select name="device">
                      {devices.map((d) => (
                        <option value={d.device_id}>
                          {d.name}
                          {d.online ? '' : ' (offline)'}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button type="submit">Transfer</button>
                </form>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    )}
  </div>
);

export const CallsPage: FC<{
  chrome: Chrome;
  session: DeskSession;
  calls: readonly LiveCall[];
  devices: readonly DeviceView[];
  flash?: Flash | undefined;
}> = ({ chrome, session, calls, devices, flash }) => (
  <Layout chrome={chrome} title="Calls" session={session} section="calls">
    <section id="calls" aria-labelledby="calls-title">
      <h1 id="calls-title">Calls</h1>
      <FlashMessage flash={flash} />
      <CallsBody calls={calls} devices={devices} session={session} />
    </section>
  </Layout>
);
