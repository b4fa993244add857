import type { FC } from 'hono/jsx';
import type { TokenView } from '../../gateway/views.js';
import type { DeskSession } from '../session.js';
import { formatInstant } from './format.js';
import { FlashMessage, Layout, type Chrome, type Flash } from './layout.js';

/**
 * The signed-in staff member's personal access tokens: a form to mint one, the new token once (it
 * is never stored, so it cannot be shown again), and the list with a revoke button per live token.
 */
export const TokensPage: FC<{
  chrome: Chrome;
  session: DeskSession;
  tokens: readonly TokenView[];
  timeZone: string;
  defaultDays: number;
  maxDays: number;
  minted?: { name: string; token: string } | undefined;
  flash?: Flash | undefined;
}> = ({ chrome, session, tokens, timeZone, defaultDays, maxDays, minted, flash }) => (
  <Layout chrome={chrome} title="Access tokens" session={session} section="tokens">
    <h1>Personal access tokens</h1>
    <p>
      A token lets your own assistant use the call gateway (<code>/staff/mcp</code> and <code>/api</code>) as
      you. Treat it like a password.
    </p>
    <FlashMessage flash={flash} />
    {minted ? (
      <section class="minted" aria-labelledby="minted-title">
        <h2 id="minted-title">Token “{minted.name}”</h2>
        <p>Copy it now: it is shown only this once.</p>
        <p>
          <code id="minted-token">{minted.token}</code>
        </p>
      </section>
    ) : null}
    <form class="mint" method="post" action="/desk/tokens">
      <input type="hidden" name="csrf_token" value={session.csrfToken} />
      <label>
        Name <input name="name" required maxlength={80} placeholder="laptop assistant" />
      </label>
      <label>
        Expires in (days){' '}
        <input name="expires_in_days" type="number" min={1} max={maxDays} value={String(defaultDays)} />
      </label>
      <button type="submit">Mint token</button>
    </form>
    <h2>Your tokens</h2>
    {tokens.length === 0 ? (
      <p>You have no tokens.</p>
    ) : (
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr data-token-id={t.token_id}>
                <td>{t.name}</td>
                <td>{formatInstant(t.created_at, timeZone)}</td>
                <td>{formatInstant(t.expires_at, timeZone)}</td>
                <td>{t.last_used_at ? formatInstant(t.last_used_at, timeZone) : 'never'}</td>
                <td>{t.state}</td>
                <td>
                  {t.state === 'active' ? (
                    <form method="post" action={`/desk/tokens/${encodeURIComponent(t.token_id)}/revoke`}>
                      <input type="hidden" name="csrf_token" value={session.csrfToken} />
                      <button type="submit" class="quiet">
                        Revoke
                      </button>
                    </form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </Layout>
);
