import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { AccountActor } from '../../usecases/staff-accounts.js';
import { CSRF_FIELD, originAllowed, tokensMatch } from '../csrf.js';
import type { DeskServices } from '../services.js';
import { fullPage } from '../render.js';
import type { DeskEnv } from '../session.js';
import { AdminPage, type Revealed } from '../views/admin.js';
import { ErrorPage } from '../views/error.js';
import type { Flash } from '../views/layout.js';
import { readFormBody } from '../../http/forms.js';

const field = (form: Record<string, unknown>, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value : '';
};

/** Staff account management: admins only; every change needs the session's CSRF token. */
export function adminRoutes(services: DeskServices): Hono<DeskEnv> {
  const routes = new Hono<DeskEnv>();
  const { sessions, accounts, chrome, ctx } = services;
  const timeZone = ctx.data.office.timezone;

  const adminOnly: MiddlewareHandler<DeskEnv> = async (c, next) => {
    if (c.get('session').role !== 'admin') {
      return c.html(
        fullPage(
          <ErrorPage
            chrome={chrome}
            session={c.get('session')}
            title="Admins only"
            message="Only an admin can manage staff accounts. Ask one of your admins."
          />,
        ),
        403,
      );
    }
    if (c.req.method === 'POST') {
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
    }
    return next();
  };

  const actor = (c: Context<DeskEnv>): AccountActor => {
    const session = c.get('session');
    return { kind: 'staff', staff: { account: session.username, name: session.displayName } };
  };

  const render = async (
    c: Context<DeskEnv>,
    status: 200 | 400 | 404 | 409,
    flash?: Flash,
    revealed?: Revealed,
  ) =>
    c.html(
      fullPage(
        <AdminPage
          chrome={chrome}
          session={c.get('session')}
          accounts={await accounts.list()}
          timeZone={timeZone}
          flash={flash}
          revealed={revealed}
        />,
      ),
      status,
    );

  routes.use('*', sessions.requirePage(), adminOnly);

  routes.get('/', (c) => render(c, 200));

  routes.post('/', async (c) => {
    const form = await readFormBody(c);
    const added = await accounts.add(
      {
        username: field(form, 'username'),
        displayName: field(form, 'display_name'),
        role: field(form, 'role'),
        password: field(form, 'password'),
      },
      actor(c),
    );
    if (!added.ok)
      return render(c, added.error.code === 'exists' ? 409 : 400, {
        kind: 'error',
        text: added.error.message,
      });
    const { account, generatedPassword } = added.value;
    return render(
      c,
      200,
      { kind: 'ok', text: `Added ${account.username} (${account.role}).` },
      generatedPassword ? { username: account.username, password: generatedPassword } : undefined,
    );
  });

  routes.post('/:username/disable', async (c) => {
    const disabled = await accounts.disable(c.req.param('username'), actor(c));
    if (!disabled.ok) {
      return render(c, disabled.error.code === 'not_found' ? 404 : 409, {
        kind: 'error',
        text: disabled.error.message,
      });
    }
    return render(c, 200, {
      kind: 'ok',
      text: `Disabled ${disabled.value.username}; it is signed out everywhere.`,
    });
  });

  routes.post('/:username/password', async (c) => {
    const reset = await accounts.resetPassword(c.req.param('username'), actor(c));
    if (!reset.ok) return render(c, 404, { kind: 'error', text: reset.error.message });
    const { account, generatedPassword } = reset.value;
    return render(
      c,
      200,
      { kind: 'ok', text: `Reset the password of ${account.username}; it is signed out everywhere.` },
      { username: account.username, password: generatedPassword! },
    );
  });

  return routes;
}
