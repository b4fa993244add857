import type { FC } from 'hono/jsx';
import { STAFF_ROLES } from '../../core/staff-accounts.js';
import type { StaffAccountView } from '../../usecases/staff-accounts.js';
import type { DeskSession } from '../session.js';
import { formatInstant } from './format.js';
import { FlashMessage, Layout, type Chrome, type Flash } from './layout.js';

/** A password shown once, right after it was generated. */
export interface Revealed {
  readonly username: string;
  readonly password: string;
}

export const AdminPage: FC<{
  chrome: Chrome;
  session: DeskSession;
  accounts: readonly StaffAccountView[];
  timeZone: string;
  flash?: Flash | undefined;
  revealed?: Revealed | undefined;
}> = ({ chrome, session, accounts, timeZone, flash, revealed }) => (
  <Layout chrome={chrome} title="Staff accounts" session={session} section="staff">
    <section aria-labelledby="staff-title">
      <h1 id="staff-title">Staff accounts</h1>
      <p class="hint">
        Admins manage accounts; everyone with an active account can decide requests. Disabling an account or
        resetting its password signs it out everywhere.
      </p>
      <FlashMessage flash={flash} />
      {revealed ? (
        <div class="reveal" role="status">
          <p>
            New password for <strong>{revealed.username}</strong>, shown only this once. Hand it over in
            person or through your password manager:
          </p>
          <p>
            <output class="secret" aria-label="Generated password">
              {revealed.password}
            </output>
          </p>
        </div>
      ) : null}
      <div class="table-wrap" tabindex={0} role="region" aria-label="Accounts">
        <table class="accounts">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => (
              <tr>
                <td>
                  <code>{a.username}</code>
                </td>
                <td>{a.display_name}</td>
                <td>{a.role}</td>
                <td>{a.disabled_at ? `Disabled ${formatInstant(a.disabled_at, timeZone)}` : 'Active'}</td>
                <td class="row-actions">
                  {a.disabled_at ? null : (
                    <>
                      <form
                        method="post"
                        action={`/desk/admin/staff/${encodeURIComponent(a.username)}/password`}
                      >
                        <input type="hidden" name="csrf_token" value={session.csrfToken} />
                        <button
                          type="submit"
                          class="quiet"
                          aria-label={`Reset the password of ${a.username}`}
                        >
                          Reset password
                        </button>
                      </form>
                      <form
                        method="post"
                        action={`/desk/admin/staff/${encodeURIComponent(a.username)}/disable`}
                      >
                        <input type="hidden" name="csrf_token" value={session.csrfToken} />
                        <button type="submit" class="reject" aria-label={`Disable ${a.username}`}>
                          Disable
                        </button>
                      </form>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 id="add-title">Add an account</h2>
      <form method="post" action="/desk/admin/staff" class="stack narrow" aria-labelledby="add-title">
        <input type="hidden" name="csrf_token" value={session.csrfToken} />
        <label for="new-username">Username</label>
        <input
          id="new-username"
          name="username"
          required
          maxlength={32}
          autocomplete="off"
          autocapitalize="none"
          spellcheck={false}
          aria-describedby="new-username-hint"
        />
        <p class="field-hint" id="new-username-hint">
          2 to 32 lower-case letters, digits, dots, dashes or underscores.
        </p>
        <label for="new-name">Display name (goes on the audit trail)</label>
        <input id="new-name" name="display_name" required maxlength={80} autocomplete="off" />
        <label for="new-role">Role</label>
        <select id="new-role" name="role">
          {STAFF_ROLES.map((role) => (
            <option value={role} selected={role === 'staff'}>
              {role}
            </option>
          ))}
        </select>
        <label for="new-password">Password (leave empty to generate one)</label>
        <input
          id="new-password"
          name="password"
          type="password"
          autocomplete="new-password"
          minlength={8}
          maxlength={256}
        />
        <button type="submit" class="primary">
          Add account
        </button>
      </form>
    </section>
  </Layout>
);
