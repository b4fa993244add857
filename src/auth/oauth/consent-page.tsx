import { createHash } from 'node:crypto';
import type { FC } from 'hono/jsx';
import type { AuthorizationRequest } from './authorization-server.js';

/**
 * The page a caller sees when an assistant asks to act for them: who is asking, what it may do, and
 * a sign-in. Server-rendered with hono/jsx, which escapes every interpolated value.
 */
const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:26rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 2px 12px #0002}
h1{font-size:1.3rem;margin:0 0 .5rem}ul{padding-left:1.2rem}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.6rem;border:1px solid #99a;border-radius:6px;font-size:1rem}
.actions{display:flex;gap:.8rem;margin-top:1.4rem}button{flex:1;padding:.7rem;border-radius:6px;border:0;font-size:1rem;cursor:pointer}
button[value=allow]{background:#1f5eff;color:#fff}button[value=deny]{background:#e4e6eb;color:#1d2330}
.error{background:#fde8e8;color:#8a1414;padding:.6rem .8rem;border-radius:6px}small{color:#556}
`;

/** The CSP hash of the one inline style block, so the page needs no 'unsafe-inline'. */
export const CONSENT_STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

const SCOPE_TEXT: Readonly<Record<string, string>> = {
  'mcp:tools': 'place holds, check and ask to cancel your own appointments, and pass requests to staff',
  'mcp:resources': 'read the office profile',
};

export const ConsentPage: FC<{
  officeName: string;
  clientName: string;
  request: AuthorizationRequest;
  csrfToken: string;
  username?: string | undefined;
  error?: string | undefined;
}> = ({ officeName, clientName, request, csrfToken, username, error }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>Link your account · {officeName}</title>
      <style>{STYLE}</style>
    </head>
    <body>
      <main>
        <h1>Link your account with {officeName}</h1>
        <p>
          <strong>{clientName}</strong> asks to act for you. It will be able to:
        </p>
        <ul>
          {request.scope.split(' ').map((scope) => (
            <li>{SCOPE_TEXT[scope] ?? scope}</li>
          ))}
        </ul>
        <p>
          <small>
            Nothing it does is binding: a person at the office confirms every booking and cancellation.
          </small>
        </p>
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        <form method="post" action="/oauth/authorize">
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name="response_type" value="code" />
          <input type="hidden" name="client_id" value={request.clientId} />
          <input type="hidden" name="redirect_uri" value={request.redirectUri} />
          <input type="hidden" name="code_challenge" value={request.codeChallenge} />
          <input type="hidden" name="code_challenge_method" value="S256" />
          <input type="hidden" name="scope" value={request.scope} />
          <input type="hidden" name="resource" value={request.resource} />
          {request.state !== undefined ? <input type="hidden" name="state" value={request.state} /> : null}
          <label for="username">Username</label>
          <input
            id="username"
            name="username"
            type="text"
            autocomplete="username"
            value={username ?? ''}
            required
          />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" />
          <div class="actions">
            <button type="submit" name="decision" value="allow">
              Allow
            </button>
            <button type="submit" name="decision" value="deny" formnovalidate>
              Deny
            </button>
          </div>
        </form>
      </main>
    </body>
  </html>
);

export const ErrorPage: FC<{ title: string; message: string }> = ({ title, message }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <title>{title}</title>
      <style>{STYLE}</style>
    </head>
    <body>
      <main>
        <h1>{title}</h1>
        <p class="error">{message}</p>
      </main>
    </body>
  </html>
);

export const DebugCallbackPage: FC<{
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}> = ({ code, state, error }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <title>Authorization result</title>
      <style>{STYLE}</style>
    </head>
    <body>
      <main>
        <h1>Authorization result</h1>
        {error ? <p class="error">error: {error}</p> : null}
        {code ? (
          <p>
            code: <code id="code">{code}</code>
          </p>
        ) : null}
        {state ? <p>state: {state}</p> : null}
        <p>
          <small>Exchange the code at /oauth/token within 60 seconds, with the PKCE code_verifier.</small>
        </p>
      </main>
    </body>
  </html>
);
