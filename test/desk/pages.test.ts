import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { DIALECTS } from '../support/databases.js';
import { callTool, connectClient, startTestServer, type TestServer } from '../support/server.js';
import { DESK_SETTINGS, DeskClient, holdArgs, openSlots, STAFF } from './support.js';

const XSS_NAME = '<img src=x onerror="window.pwned=1">Eve';
const XSS_NOTES = '<script>window.pwned=2</script> & "quotes"';

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason !== undefined)(`staff desk pages on ${dialect.name}`, () => {
    let server: TestServer;
    let store: Store;
    let mcp: Client;
    let staff: DeskClient;
    const slots = openSlots();

    beforeAll(async () => {
      server = await startTestServer(dialect, DESK_SETTINGS);
      store = await openStore(server.database.target);
      mcp = await connectClient(server.mcpUrl);
      staff = await DeskClient.signIn(server.url);
    });

    afterAll(async () => {
      await mcp.close();
      await store.close();
      await server.dispose();
    });

    const page = async (path: string) => {
      const response = await staff.fetch(path);
      return { status: response.status, html: await response.text(), response };
    };

    describe('the queue', () => {
      it('shows what the caller said as text, never as markup', async () => {
        const placed = await callTool(mcp, 'book_appointment', {
          ...holdArgs(slots.next().value),
          client_name: XSS_NAME,
          notes: XSS_NOTES,
        });
        expect(placed.ok).toBe(true);
        const { status, html } = await page('/desk');
        expect(status).toBe(200);
        expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
        expect(html).toContain('&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;Eve');
        expect(html).toContain('&lt;script&gt;window.pwned=2&lt;/script&gt; &amp; &quot;quotes&quot;');
        expect(html).not.toContain('<img src=x');
        expect(html).not.toContain('<script>window');
        // The only script is the desk's own file.
        expect(html.match(/<script/g)).toHaveLength(1);
        expect(html).toMatch(/<script src="\/desk\/assets\/desk\.js\?v=[0-9a-f]{12}" defer/);
      });

      it('labels every control and carries the CSRF token in every form', async () => {
        const { html } = await page('/desk');
        const forms = html.match(/<form[\s\S]*?<\/form>/g)!;
        expect(forms.length).toBeGreaterThanOrEqual(2);
        for (const form of forms) expect(form).toContain(`name="csrf_token" value="${staff.csrf}"`);
        for (const [, id] of html.matchAll(/<textarea id="([^"]+)"/g))
          expect(html).toContain(`<label for="${id}">`);
        expect(html).toMatch(/aria-label="Approve: [^"]*Eve, Consultation/);
        expect(html).toContain('<title>Queue (1)');
      });

      it('serves the list alone for live refreshes', async () => {
        const { status, html } = await page('/desk/partials/queue');
        expect(status).toBe(200);
        expect(html.startsWith('<div id="queue-body" data-count="1">')).toBe(true);
        expect(html).not.toContain('<html');
      });

      it('takes a plain form decision and says what happened on the next page', async () => {
        const [item] = await staff.approvals();
        const decided = await staff.form(`/desk/approvals/${item!.id}/decision`, {
          decision: 'reject',
          note: 'No slot',
        });
        expect(decided.status).toBe(303);
        const { html } = await page(decided.headers.get('location')!);
        expect(html).toMatch(
          /role="status">&lt;img[^<]*Eve, Consultation, [^<]*: rejected by Front desk\.<\/p>/,
        );
        const again = await staff.form(`/desk/approvals/${item!.id}/decision`, { decision: 'approve' });
        expect(again.status).toBe(409);
        expect(await again.text()).toContain('This request was already rejected by Front desk.');
        expect(
          (await staff.form('/desk/approvals/REQ-ZZZZZZ/decision', { decision: 'approve' })).status,
        ).toBe(404);
        expect(
          (await staff.form(`/desk/approvals/${item!.id}/decision`, { decision: 'perhaps' })).status,
        ).toBe(400);
      });

      it('says when nothing waits', async () => {
        const { html } = await page('/desk');
        expect(html).toContain('Nothing is waiting.');
        expect((await staff.fetch('/desk/')).headers.get('location')).toBe('/desk');
      });
    });

    describe('the calendar', () => {
      it('shows holds and confirmed appointments by day, today and this week', async () => {
        const holdSlot = { date: '2026-09-16', start_time: '15:00' };
        const confirmedSlot = { date: '2026-09-17', start_time: '11:00' };
        await callTool(mcp, 'book_appointment', { ...holdArgs(holdSlot), client_name: 'Hal Hold' });
        const booked = await callTool(mcp, 'book_appointment', {
          ...holdArgs(confirmedSlot),
          client_name: 'Cora Confirmed',
        });
        const request = (await staff.approvals()).find((r) => r.appointment?.id === booked.appointment_id)!;
        expect((await staff.decide(request.id, { decision: 'approve' })).status).toBe(200);

        const week = await page('/desk/calendar?view=week');
        expect(week.status).toBe(200);
        expect(week.html).toContain('Week of Mon, Sep 14, 2026 to Sun, Sep 20, 2026');
        const wednesday = /<section class="day"[^>]*aria-labelledby="day-2026-09-16"[\s\S]*?<\/section>/.exec(
          week.html,
        )![0];
        expect(wednesday).toContain('Hal Hold');
        expect(wednesday).toContain('Hold, awaiting approval');
        const thursday = /aria-labelledby="day-2026-09-17"[\s\S]*?<\/section>/.exec(week.html)![0];
        expect(thursday).toContain('Cora Confirmed');
        expect(thursday).toContain('Confirmed');
        expect(week.html).toContain('(today)');

        const today = await page('/desk/calendar');
        expect(today.html).toContain('Mon, Sep 14, 2026');
        expect(today.html).not.toContain('Cora Confirmed');
        const thatDay = await page('/desk/calendar?view=today&date=2026-09-17');
        expect(thatDay.html).toContain('Cora Confirmed');
        expect(thatDay.html).toContain('href="/desk/calendar?view=today&amp;date=2026-09-18"');
        expect((await page('/desk/calendar?view=week&date=2026-02-30')).status).toBe(400);
      });
    });

    describe('the audit trail', () => {
      it('filters by action, actor, target and dates', async () => {
        const all = await page('/desk/audit');
        expect(all.status).toBe(200);
        expect(all.html).toContain('hold.placed');
        const approved = await page('/desk/audit?action=hold.approved');
        expect(approved.html).toContain('hold.approved');
        expect(approved.html).not.toContain('<code>hold.placed</code>');
        expect((await page('/desk/audit?actor=staff')).html).not.toContain('<code>hold.placed</code>');
        expect((await page('/desk/audit?from=2026-09-15')).html).toContain('No entries match.');
        expect((await page('/desk/audit?from=2026-09-14&to=2026-09-14')).html).toContain('hold.placed');
        const bad = await page('/desk/audit?from=yesterday');
        expect(bad.status).toBe(400);
        expect(bad.html).toContain('Some filters were not understood');
        const before = await page('/desk/audit?before=2');
        expect(before.html).toMatch(/<td>1<\/td>/);
        expect(before.html).not.toMatch(/<td>2<\/td>/);
      });

      it('exports CSV that spreadsheets cannot run', async () => {
        const admin = staff;
        await admin.form('/desk/admin/staff', {
          username: 'formula',
          display_name: '=HYPERLINK("http://evil.example","x")',
          role: 'staff',
          password: 'formula-password',
        });
        const formula = await DeskClient.signIn(server.url, 'formula', 'formula-password');
        await callTool(mcp, 'request_human_approval', { action: '@SUM(1+1)', summary: '-2+3' });
        const escalation = (await formula.approvals()).find((r) => r.kind === 'escalation')!;
        expect((await formula.decide(escalation.id, { decision: 'approve' })).status).toBe(200);

        const response = await staff.fetch('/desk/audit.csv?action=escalation.resolved');
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        expect(response.headers.get('content-disposition')).toBe(
          'attachment; filename="holddesk-audit-2026-09-14.csv"',
        );
        const csv = await response.text();
        const lines = csv.split('\r\n');
        expect(lines[0]).toBe(
          'seq,at,actor_kind,actor_id,actor_name,action,target_type,target_id,details,prev_hash,hash',
        );
        expect(lines[1]).toContain(
          `,staff,formula,"'=HYPERLINK(""http://evil.example"",""x"")",escalation.resolved,`,
        );
        expect(lines).toHaveLength(3);
        expect(lines[2]).toBe('');
        expect((await staff.fetch('/desk/audit.csv?to=nope')).status).toBe(400);
      });

      it('checks the chain, and shows where it breaks', async () => {
        const intact = await page('/desk/audit?check=1');
        expect(intact.html).toMatch(/The audit trail is intact: \d+ entries/);
        if (store.dialect === 'postgres') {
          await sql`alter table audit_log disable trigger audit_log_append_only`.execute(store.db);
        } else {
          await sql`drop trigger audit_log_no_update`.execute(store.db);
        }
        await store.db
          .updateTable('audit_log')
          .set({ actor_name: 'Someone Else' })
          .where('seq', '=', 2)
          .execute();
        const broken = await page('/desk/audit?check=1');
        expect(broken.html).toContain(
          'The audit trail is broken at entry 2: content does not match its hash.',
        );
      });
    });

    describe('staff accounts', () => {
      it('lets an admin add an account with a generated password, shown once, that works', async () => {
        const added = await staff.form('/desk/admin/staff', {
          username: 'Nadia',
          display_name: 'Nadia Park',
          role: 'staff',
          password: '',
        });
        expect(added.status).toBe(200);
        const html = await added.text();
        const password = /aria-label="Generated password">([^<]+)<\/output>/.exec(html)![1]!;
        expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
        expect(html).toContain('Added nadia (staff).');
        const nadia = await DeskClient.signIn(server.url, 'nadia', password);
        expect((await page('/desk/admin/staff')).html).not.toContain(password);
        expect((await nadia.fetch('/desk/admin/staff')).status).toBe(403);
        const forbidden = await nadia.form('/desk/admin/staff', {
          username: 'sneaky',
          display_name: 'S',
          role: 'admin',
          password: 'sneaky-password',
        });
        expect(forbidden.status).toBe(403);
        expect((await new DeskClient(server.url).login('sneaky', 'sneaky-password')).status).toBe(401);
      });

      it('refuses duplicates, bad usernames, short passwords and forms without the token', async () => {
        const duplicate = await staff.form('/desk/admin/staff', {
          username: 'nadia',
          display_name: 'Again',
          role: 'staff',
        });
        expect(duplicate.status).toBe(409);
        const bad = await staff.form('/desk/admin/staff', {
          username: 'no spaces',
          display_name: 'X',
          role: 'staff',
        });
        expect(bad.status).toBe(400);
        const short = await staff.form('/desk/admin/staff', {
          username: 'shorty',
          display_name: 'X',
          role: 'staff',
          password: 'short',
        });
        expect(short.status).toBe(400);
        const role = await staff.form('/desk/admin/staff', {
          username: 'rooty',
          display_name: 'X',
          role: 'root',
        });
        expect(role.status).toBe(400);
        const forged = await staff.form('/desk/admin/staff', {
          username: 'forged',
          display_name: 'F',
          role: 'admin',
          csrf_token: 'x',
        });
        expect(forged.status).toBe(403);
        expect((await staff.fetch('/desk/admin/staff')).status).toBe(200);
        expect(await (await staff.fetch('/desk/admin/staff')).text()).not.toContain('forged');
      });

      it('resets a password and disables an account, signing it out everywhere', async () => {
        const added = await staff.form('/desk/admin/staff', {
          username: 'omar',
          display_name: 'Omar',
          role: 'staff',
          password: 'omar-password',
        });
        expect(added.status).toBe(200);
        const omar = await DeskClient.signIn(server.url, 'omar', 'omar-password');
        const reset = await staff.form('/desk/admin/staff/omar/password', {});
        expect(reset.status).toBe(200);
        const password = /aria-label="Generated password">([^<]+)<\/output>/.exec(await reset.text())![1]!;
        expect((await omar.fetch('/desk/api/session')).status).toBe(401);
        expect((await new DeskClient(server.url).login('omar', 'omar-password')).status).toBe(401);
        const again = await DeskClient.signIn(server.url, 'omar', password);
        const disabled = await staff.form('/desk/admin/staff/omar/disable', {});
        expect(disabled.status).toBe(200);
        expect((await again.fetch('/desk/api/session')).status).toBe(401);
        expect((await new DeskClient(server.url).login('omar', password)).status).toBe(401);
        expect((await staff.form('/desk/admin/staff/omar/disable', {})).status).toBe(409);
        expect((await staff.form('/desk/admin/staff/ghost/disable', {})).status).toBe(404);
        expect((await staff.form('/desk/admin/staff/ghost/password', {})).status).toBe(404);
      });

      it('keeps the last active admin', async () => {
        const refused = await staff.form(`/desk/admin/staff/${STAFF.username}/disable`, {});
        expect(refused.status).toBe(409);
        expect(await refused.text()).toContain('This is the last active admin account');
        expect((await staff.fetch('/desk/api/session')).status).toBe(200);
      });
    });
  });
}
