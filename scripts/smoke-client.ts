/**
 * Exercises every caller tool against a running HoldDesk with the official MCP client and prints a
 * transcript: what was asked, what the server answered, and what a voice assistant would say. Then it
 * plays the staff member: signs in to the desk's JSON API, approves the hold it made, and checks the
 * caller now hears "confirmed".
 *
 *   HOLDDESK_DESK_PASSWORD=<staff password> npx tsx scripts/smoke-client.ts http://127.0.0.1:8641/mcp \
 *       [--date 2026-12-02] [--token <bearer>] [--desk-user staff]
 */
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { date: { type: 'string' }, token: { type: 'string' }, 'desk-user': { type: 'string' } },
});
const url = positionals[0] ?? 'http://127.0.0.1:8641/mcp';
const token = values.token ?? process.env.HOLDDESK_BEARER_TOKEN;
const deskUser = values['desk-user'] ?? process.env.HOLDDESK_DESK_USERNAME ?? 'staff';
// From the environment, so the password never shows in a process list.
const deskPassword = process.env.HOLDDESK_DESK_PASSWORD;

type Structured = Record<string, unknown> & { ok: boolean; spoken_summary: string };

function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** The next weekday at least two days out, so the minimum lead time never gets in the way. */
function defaultDate(): string {
  const day = new Date(Date.now() + 2 * 86_400_000);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

async function main(): Promise<void> {
  const client = new Client({ name: 'holddesk-smoke-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>): Promise<Structured> => {
    print(`> ${name} ${JSON.stringify(args)}`);
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    const structured = result.structuredContent as Structured;
    const { spoken_summary, ...rest } = structured;
    print(`< ${JSON.stringify(rest).slice(0, 300)}`);
    print(`  says: ${spoken_summary}`);
    print();
    return structured;
  };

  print(`Connected to ${client.getServerVersion()?.name} ${client.getServerVersion()?.version} at ${url}`);
  const { tools } = await client.listTools();
  print(`Tools: ${tools.map((t) => t.name).join(', ')}`);
  print();

  let date = values.date ?? defaultDate();
  let openings = await call('check_availability', { date, service: 'consultation' });
  for (let tries = 0; (!openings.ok || (openings.slots as unknown[]).length === 0) && tries < 14; tries++) {
    const next = new Date(`${date}T12:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    date = next.toISOString().slice(0, 10);
    openings = await call('check_availability', { date, service: 'consultation' });
  }
  const slot = (openings.slots as { start_time: string }[] | undefined)?.[0];
  if (!slot) throw new Error('no opening found in two weeks');
  const contact = '(312) 555-0199';
  const hold = await call('book_appointment', {
    client_name: 'Smoke Test Caller',
    contact,
    service: 'consultation',
    date,
    start_time: slot.start_time,
    notes: 'Reviewing my home policy',
  });
  await call('get_appointment_status', { appointment_id: hold.appointment_id, contact: '0199' });
  if (deskPassword) {
    await approveOnDesk(new URL('/desk', url).href, hold.appointment_id as string);
    const status = await call('get_appointment_status', {
      appointment_id: hold.appointment_id,
      contact: '0199',
    });
    if (status.status !== 'confirmed')
      throw new Error(`expected a confirmed appointment, got ${String(status.status)}`);
  } else {
    print('(Desk step skipped: set HOLDDESK_DESK_PASSWORD to sign in to the desk and approve the hold.)');
    print();
  }
  await call('answer_office_faq', { question: 'What documents should I bring?' });
  await call('estimate_home_insurance_quote_range', {
    state: 'IL',
    dwelling_coverage: 350000,
    year_built: 1998,
  });
  await call('request_human_approval', {
    action: 'callback',
    summary: 'Please call me about bundling auto and home',
  });
  await call('cancel_appointment', {
    appointment_id: hold.appointment_id,
    contact,
    reason: 'Smoke test is done',
  });
  await client.close();
  print('Every tool answered.');
}

/** The staff side, through the desk's JSON API: sign in, find the hold's request, approve it. */
async function approveOnDesk(desk: string, appointmentId: string): Promise<void> {
  print(`> sign in to ${desk} as ${deskUser}`);
  const login = await fetch(`${desk}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: deskUser, password: deskPassword }),
  });
  if (login.status !== 200) throw new Error(`desk sign-in failed: ${login.status} ${await login.text()}`);
  const session = login.headers.getSetCookie().find((c) => c.startsWith('holddesk_desk='));
  if (!session) throw new Error('desk sign-in set no session cookie');
  const cookie = session.split(';')[0]!;
  const { csrf_token: csrf, staff } = (await login.json()) as {
    csrf_token: string;
    staff: { display_name: string };
  };
  print(`< signed in as ${staff.display_name}`);

  const queue = (await (await fetch(`${desk}/api/approvals`, { headers: { cookie } })).json()) as {
    approvals: { id: string; kind: string; appointment: { id: string } | null }[];
  };
  const request = queue.approvals.find((r) => r.kind === 'hold' && r.appointment?.id === appointmentId);
  if (!request) throw new Error(`the hold ${appointmentId} is not in the desk's queue`);
  print(`> approve ${request.id} (hold ${appointmentId})`);
  const decided = await fetch(`${desk}/api/approvals/${request.id}/decision`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
    body: JSON.stringify({ decision: 'approve', note: 'Approved by the smoke client' }),
  });
  if (decided.status !== 200) throw new Error(`approval failed: ${decided.status} ${await decided.text()}`);
  const { approval } = (await decided.json()) as { approval: { status: string; decided_by_name: string } };
  print(`< ${approval.status} by ${approval.decided_by_name}`);
  await fetch(`${desk}/api/logout`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf } });
  print();
}

main().catch((error: unknown) => {
  process.stderr.write(`smoke client failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
