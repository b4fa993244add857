import type { Child, FC } from 'hono/jsx';
import type { DeskSession } from '../session.js';

export type Section = 'queue' | 'calendar' | 'audit' | 'calls' | 'tokens' | 'staff';

export interface Flash {
  readonly kind: 'ok' | 'error';
  readonly text: string;
}

export interface Chrome {
  readonly officeName: string;
  readonly scriptUrl: string;
  readonly styleUrl: string;
  /** Whether the call gateway's pages (Calls, Access tokens) are mounted. */
  readonly gatewayPages?: boolean;
}

const NAV: readonly {
  section: Section;
  href: string;
  label: string;
  adminOnly?: boolean;
  gateway?: boolean;
}[] = [
  { section: 'queue', href: '/desk', label: 'Queue' },
  { section: 'calendar', href: '/desk/calendar', label: 'Calendar' },
  { section: 'audit', href: '/desk/audit', label: 'Audit trail' },
  { section: 'calls', href: '/desk/calls', label: 'Calls', gateway: true },
  { section: 'tokens', href: '/desk/tokens', label: 'Access tokens', gateway: true },
  { section: 'staff', href: '/desk/admin/staff', label: 'Staff accounts', adminOnly: true },
];

export const FlashMessage: FC<{ flash: Flash | undefined }> = ({ flash }) =>
  flash ? (
    <p class={`flash flash-${flash.kind}`} role={flash.kind === 'error' ? 'alert' : 'status'}>
      {flash.text}
    </p>
  ) : null;

/**
 * Every desk page: a skip link, the navigation, who is signed in and a sign-out button, and one
 * live region the page script announces results in. Text is escaped by hono/jsx; nothing here
 * renders raw HTML.
 */
export const Layout: FC<{
  chrome: Chrome;
  title: string;
  session?: DeskSession | undefined;
  section?: Section | undefined;
  children?: Child;
}> = ({ chrome, title, session, section, children }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${title} · ${chrome.officeName} desk`}</title>
      {session ? <meta name="csrf-token" content={session.csrfToken} /> : null}
      <link rel="stylesheet" href={chrome.styleUrl} />
      <script src={chrome.scriptUrl} defer></script>
    </head>
    <body>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">
          <span class="brand-name">HoldDesk</span> <span class="office">{chrome.officeName}</span>
        </p>
        {session ? (
          <nav aria-label="Desk">
            <ul>
              {NAV.filter(
                (item) =>
                  (!item.adminOnly || session.role === 'admin') && (!item.gateway || chrome.gatewayPages),
              ).map((item) => (
                <li>
                  <a href={item.href} aria-current={item.section === section ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {session ? (
          <form class="signout" method="post" action="/desk/logout">
            <input type="hidden" name="csrf_token" value={session.csrfToken} />
            <span class="who">
              {session.displayName} <span class="role">({session.role})</span>
            </span>
            <button type="submit" class="quiet">
              Sign out
            </button>
          </form>
        ) : null}
      </header>
      <main id="main" tabindex={-1}>
        {children}
      </main>
      <div id="announcer" class="visually-hidden" role="status" aria-live="polite"></div>
    </body>
  </html>
);
