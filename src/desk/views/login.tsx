import type { FC } from 'hono/jsx';
import { FlashMessage, Layout, type Chrome, type Flash } from './layout.js';

export const LoginPage: FC<{ chrome: Chrome; token: string; username?: string; flash?: Flash }> = ({
  chrome,
  token,
  username,
  flash,
}) => (
  <Layout chrome={chrome} title="Sign in">
    <section class="login" aria-labelledby="login-title">
      <h1 id="login-title">Staff sign-in</h1>
      <p class="hint">
        The desk is where holds become bookings. Sign in with your staff account; callers never use this page.
      </p>
      <FlashMessage flash={flash} />
      <form method="post" action="/desk/login" class="stack">
        <input type="hidden" name="csrf_token" value={token} />
        <label for="username">Username</label>
        <input
          id="username"
          name="username"
          type="text"
          autocomplete="username"
          autocapitalize="none"
          spellcheck={false}
          required
          maxlength={64}
          value={username ?? ''}
          autofocus
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          maxlength={256}
        />
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </section>
  </Layout>
);
