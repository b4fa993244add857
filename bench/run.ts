/**
 * HoldDesk's benchmark: real servers in their own processes, driven over Streamable HTTP on loopback
 * by autocannon, against two baselines measured in the same run (a bare `http` ceiling and the
 * official SDK's per-request stateless server as the floor). Prints tables and the targets.
 *
 *   npm run bench [-- --quick] [--postgres postgres://postgres@127.0.0.1:5432/test]
 *                 [--connections 32] [--profile <dir>]
 *
 * PostgreSQL rows run when `--postgres` or HOLDDESK_TEST_DATABASE_URL names a server; each run works
 * in a fresh schema of its own and drops it. `--profile` writes a V8 CPU profile per HoldDesk server.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnServer, type ChildServer } from './lib/child.js';
import {
  buildHoldDesk,
  call,
  callerToken,
  connect,
  ensureDir,
  holddeskEnv,
  openConsultations,
  postgresDatabase,
  ROOT,
  seedAppointments,
  sqliteDatabase,
  startHoldDesk,
  type BenchDatabase,
  type Slot,
} from './lib/holddesk.js';
import { runLoad, type LoadResult, type LoadSpec } from './lib/load.js';
import { fixed, ratio, table } from './lib/report.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    postgres: { type: 'string' },
    connections: { type: 'string', default: '32' },
    profile: { type: 'string' },
  },
});

const QUICK = values.quick;
const CONNECTIONS = Number(values.connections);
const DURATION = QUICK ? 2 : 5;
const WARMUP = QUICK ? 0.5 : 1;
const POSTGRES_URL = values.postgres ?? process.env.HOLDDESK_TEST_DATABASE_URL;
const PROFILE_DIR = values.profile ? ensureDir(resolve(values.profile)) : undefined;
const LEAK_STEP = QUICK ? 10_000 : 50_000;
const COST_SIZES = [1_000, 10_000, 100_000];
const STARTUP_RUNS = QUICK ? 1 : 3;
/** The day every check_availability asks about; the booking rows leave it alone. */
const CHECK_DATE = '2026-09-16';
const HORIZON_DAYS = 59;

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

const rpc = (method: string, params?: unknown, id: string | number = '[<id>]') =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const toolCall = (name: string, args: Record<string, unknown>, id?: string | number) =>
  rpc('tools/call', { name, arguments: args }, id);

const CHECK_BODY = toolCall('check_availability', { date: CHECK_DATE, service: 'consultation' });
const succeeded = (body: string) => body.includes('"ok":true');

interface Row {
  readonly name: string;
  readonly setup: string;
  readonly result: LoadResult;
}

const rows: Row[] = [];
const log = (line: string) => process.stderr.write(`${line}\n`);

async function measure(
  name: string,
  setup: string,
  spec: Omit<LoadSpec, 'connections'>,
): Promise<LoadResult> {
  if (spec.amount === undefined) {
    await runLoad({ ...spec, connections: CONNECTIONS, durationSeconds: WARMUP });
  }
  const result = await runLoad({ ...spec, connections: CONNECTIONS, durationSeconds: DURATION });
  rows.push({ name, setup, result });
  log(`  ${name} [${setup}]: ${fixed(result.rps)} req/s, p99 ${result.p99} ms`);
  return result;
}

const profileArgs = (label: string): string[] =>
  PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, label)}`] : [];

async function baselines(): Promise<void> {
  log('baselines');
  const tsx = ['--import', 'tsx'];
  const ceiling = await spawnServer({
    nodeArgs: tsx,
    args: [join(ROOT, 'bench/servers/ceiling.ts')],
    ready: /listening (\S+)/,
  });
  await measure('ceiling: bare node:http', 'fixed JSON-RPC result', {
    server: ceiling,
    headers: MCP_HEADERS,
    body: toolCall('echo', { text: 'ping' }),
  });
  await ceiling.stop();
  const floor = await spawnServer({
    nodeArgs: tsx,
    args: [join(ROOT, 'bench/servers/minimal-sdk.ts')],
    ready: /listening (\S+)/,
  });
  await measure('floor: minimal SDK server', 'stateless, per request, SSE', {
    server: floor,
    headers: MCP_HEADERS,
    body: toolCall('echo', { text: 'ping' }),
    verify: (body) => body.includes('"text":"ping"'),
  });
  await floor.stop();
}

interface Running {
  readonly server: ChildServer;
  readonly headers: Record<string, string>;
}

async function holddesk(
  bin: string,
  database: BenchDatabase,
  mode: { stateful?: boolean; jsonResponse?: boolean; label: string; nodeArgs?: readonly string[] },
): Promise<Running> {
  const nodeArgs = [...(mode.nodeArgs ?? []), ...profileArgs(mode.label)];
  const server = await startHoldDesk({ bin, database, ...mode, nodeArgs });
  const token = await callerToken(server);
  return { server, headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` } };
}

/** The four caller calls on one database, stateless with server-sent events (the default). */
async function toolRows(bin: string, database: BenchDatabase): Promise<void> {
  log(`HoldDesk on ${database.label}`);
  const { server, headers } = await holddesk(bin, database, { label: `${database.label}-tools` });
  const client = await connect(server, headers.authorization!.slice('Bearer '.length));
  const slots = (await openConsultations(client, HORIZON_DAYS)).filter((s) => s.date !== CHECK_DATE);
  const kept = slots.pop()!;
  const hold = await call(client, 'book_appointment', {
    client_name: 'Status Caller',
    contact: 'status@example.com',
    service: 'consultation',
    ...kept,
  });
  await client.close();
  if (!hold.ok) throw new Error(`could not place the status hold: ${JSON.stringify(hold)}`);
  const setup = `${database.label}, OAuth Tier 2, stateless SSE`;

  await measure('ping (protocol and token check only)', setup, {
    server,
    headers,
    body: rpc('ping'),
    verify: (b) => b.includes('"result":{}'),
  });
  await measure('tools/list', setup, {
    server,
    headers,
    body: rpc('tools/list'),
    verify: (b) => b.includes('"check_availability"'),
  });
  await measure('check_availability', setup, { server, headers, body: CHECK_BODY, verify: succeeded });
  await measure('get_appointment_status', setup, {
    server,
    headers,
    body: toolCall('get_appointment_status', {
      appointment_id: hold.appointment_id,
      contact: 'status@example.com',
    }),
    verify: succeeded,
  });
  // Each booking takes a slot of its own; a connection builds its next request ahead, so a few spare.
  let next = 0;
  const bookBody = (slot: Slot, n: number) =>
    toolCall(
      'book_appointment',
      {
        client_name: `Bench Caller ${n}`,
        contact: `bench${n}@example.com`,
        service: 'consultation',
        ...slot,
      },
      n,
    );
  await measure(`book_appointment (${fixed(slots.length - 2 * CONNECTIONS)} distinct slots)`, setup, {
    server,
    headers,
    nextBody: () => {
      const n = next++;
      return bookBody(slots[n % slots.length]!, n);
    },
    amount: slots.length - 2 * CONNECTIONS,
    verify: succeeded,
  });
  await server.stop();
}

/** The same check_availability in the other transport modes, on SQLite. */
async function transportRows(bin: string): Promise<void> {
  const database = sqliteDatabase();
  try {
    log('transport modes on SQLite');
    const json = await holddesk(bin, database, { jsonResponse: true, label: 'json' });
    await measure('check_availability', 'SQLite, OAuth Tier 2, stateless JSON', {
      server: json.server,
      headers: json.headers,
      body: CHECK_BODY,
      verify: succeeded,
    });
    await json.server.stop();

    const stateful = await holddesk(bin, database, { stateful: true, label: 'stateful' });
    const sessions = await openSessions(stateful, CONNECTIONS);
    let n = 0;
    await measure('check_availability', `SQLite, OAuth Tier 2, stateful SSE (${sessions.length} sessions)`, {
      server: stateful.server,
      headers: stateful.headers,
      body: CHECK_BODY,
      connectionHeaders: () => ({ 'mcp-session-id': sessions[n++ % sessions.length]! }),
      verify: succeeded,
    });
    await stateful.server.stop();
  } finally {
    await database.dispose();
  }
}

async function openSessions({ server, headers }: Running, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(server.url, {
      method: 'POST',
      headers,
      body: rpc(
        'initialize',
        {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'bench', version: '1' },
        },
        0,
      ),
    });
    const id = response.headers.get('mcp-session-id');
    await response.text();
    if (!id) throw new Error(`initialize gave no session (${response.status})`);
    const initialized = await fetch(server.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': id },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    await initialized.text();
    ids.push(id);
  }
  return ids;
}

interface CostPoint {
  readonly database: string;
  readonly appointments: number;
  readonly result: LoadResult;
}

/** check_availability as the stored history grows, on one database seeded straight through the store. */
async function costCurve(bin: string, database: BenchDatabase): Promise<CostPoint[]> {
  log(`cost curve on ${database.label}`);
  const points: CostPoint[] = [];
  const { server, headers } = await holddesk(bin, database, { label: `${database.label}-cost` });
  // A longer warm-up first, so the first point is not the one that pays for the JIT.
  await runLoad({ server, headers, body: CHECK_BODY, connections: CONNECTIONS, durationSeconds: 3 });
  let seeded = 0;
  for (const size of COST_SIZES) {
    await seedAppointments(database.target, { from: seeded, to: size }, CHECK_DATE);
    seeded = size;
    const spec = { server, headers, body: CHECK_BODY, verify: succeeded, connections: CONNECTIONS };
    await runLoad({ ...spec, durationSeconds: WARMUP });
    const result = await runLoad({ ...spec, durationSeconds: DURATION });
    log(`  ${fixed(size)} appointments: ${fixed(result.rps)} req/s, p99 ${result.p99} ms`);
    points.push({ database: database.label, appointments: size, result });
  }
  await server.stop();
  return points;
}

interface LeakCheck {
  readonly calls: number;
  /** Resident set size after a full garbage collection. */
  readonly rssMb: number;
  /** Live JavaScript heap after a full garbage collection: what a leak would grow. */
  readonly heapUsedMb: number;
}

/**
 * Memory after a warm-up, then after each further batch of mixed read calls (no bookings), each
 * time after a full garbage collection that the preloaded memory probe runs on a signal.
 */
async function leakCheck(bin: string): Promise<LeakCheck[]> {
  const database = sqliteDatabase();
  try {
    log('leak check on SQLite');
    const probe = ['--expose-gc', '--import', 'tsx', '--import', join(ROOT, 'bench/servers/memory-probe.ts')];
    const { server, headers } = await holddesk(bin, database, { label: 'leak', nodeArgs: probe });
    const client = await connect(server, headers.authorization!.slice('Bearer '.length));
    const [slot] = await openConsultations(client, 3);
    const hold = await call(client, 'book_appointment', {
      client_name: 'Leak Caller',
      contact: 'leak@example.com',
      service: 'consultation',
      ...slot!,
    });
    await client.close();
    const bodies = [
      CHECK_BODY,
      toolCall('get_appointment_status', {
        appointment_id: hold.appointment_id,
        contact: 'leak@example.com',
      }),
      rpc('tools/list'),
    ];
    let n = 0;
    const spec = {
      server,
      headers,
      connections: CONNECTIONS,
      nextBody: () => bodies[n++ % bodies.length]!.replace('[<id>]', String(n)),
    };
    await runLoad({ ...spec, amount: 5_000 });
    const samples: LeakCheck[] = [{ calls: 0, ...(await server.liveMemory()) }];
    for (const total of [LEAK_STEP, 2 * LEAK_STEP]) {
      const result = await runLoad({ ...spec, amount: LEAK_STEP });
      if (result.non2xx + result.errors > 0) throw new Error(`leak run failed: ${JSON.stringify(result)}`);
      samples.push({ calls: total, ...(await server.liveMemory()) });
      const last = samples.at(-1)!;
      log(
        `  after ${fixed(total)} calls: RSS ${fixed(last.rssMb, 1)} MiB, heap ${fixed(last.heapUsedMb, 1)} MiB`,
      );
    }
    await server.stop();
    return samples;
  } finally {
    await database.dispose();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

/** Milliseconds from spawning `holddesk serve` until /healthz first answers 200. */
async function startupOnce(bin: string, database: BenchDatabase, oauth: boolean): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], {
    env: holddeskEnv(database, oauth),
    stdio: 'ignore',
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`holddesk exited with ${child.exitCode}`);
      if (performance.now() - started > 20_000) throw new Error('holddesk did not become healthy in 20 s');
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

interface Startup {
  readonly label: string;
  readonly ms: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function startupCase(
  bin: string,
  label: string,
  open: () => Promise<BenchDatabase>,
  oauth: boolean,
  again: boolean,
): Promise<Startup> {
  const times: number[] = [];
  for (let i = 0; i < STARTUP_RUNS; i++) {
    const database = await open();
    try {
      // A database that exists already: started once before the measured start.
      if (again) await startupOnce(bin, database, oauth);
      times.push(await startupOnce(bin, database, oauth));
    } finally {
      await database.dispose();
    }
  }
  const result = { label, ms: median(times) };
  log(`  ${label}: ${fixed(result.ms)} ms`);
  return result;
}

async function startups(bin: string): Promise<Startup[]> {
  log('start-up');
  const sqlite = () => Promise.resolve(sqliteDatabase());
  const results = [
    await startupCase(bin, 'SQLite, existing database, default settings', sqlite, false, true),
    await startupCase(bin, 'SQLite, new database (creates the schema)', sqlite, false, false),
    await startupCase(bin, 'SQLite, existing database, OAuth mode', sqlite, true, true),
  ];
  if (POSTGRES_URL) {
    results.push(
      await startupCase(bin, 'PostgreSQL, new schema', () => postgresDatabase(POSTGRES_URL), false, false),
    );
  }
  return results;
}

function report(costs: CostPoint[], leak: LeakCheck[], starts: Startup[]): void {
  const ceiling = rows[0]!.result.rps;
  const floor = rows[1]!.result.rps;
  const out: string[] = [];
  out.push(
    `HoldDesk benchmark: ${CONNECTIONS} connections, loopback, ${DURATION} s per row${QUICK ? ' (--quick)' : ''}, ` +
      `node ${process.version}, ${availableParallelism()} CPUs`,
    '',
    table(
      [
        'call',
        'setup',
        'req/s',
        'p50 ms',
        'p99 ms',
        'peak RSS MiB',
        'CPU µs/req',
        'vs ceiling',
        'vs floor',
        'non-2xx',
        'not ok',
      ],
      rows.map(({ name, setup, result }) => [
        name,
        setup,
        fixed(result.rps),
        fixed(result.p50),
        fixed(result.p99),
        fixed(result.peakRssMb),
        fixed(result.cpuUsPerRequest),
        ratio(result.rps / ceiling),
        ratio(result.rps / floor),
        fixed(result.non2xx + result.errors),
        fixed(result.wrong),
      ]),
    ),
    '',
    'check_availability as stored appointments grow (seeded through the store):',
    table(
      ['database', 'appointments', 'req/s', 'p50 ms', 'p99 ms', 'cost vs 1k'],
      costs.map((p) => {
        const base = costs.find((c) => c.database === p.database)!.result.rps;
        return [
          p.database,
          fixed(p.appointments),
          fixed(p.result.rps),
          fixed(p.result.p50),
          fixed(p.result.p99),
          ratio(base / p.result.rps),
        ];
      }),
    ),
    '',
    'Start-up of `holddesk serve` to the first 200 from /healthz (median):',
    table(
      ['database', 'ms'],
      starts.map((s) => [s.label, fixed(s.ms)]),
    ),
    '',
    'Server memory after a full GC, under mixed read calls (check_availability, get_appointment_status, tools/list):',
    table(
      ['calls', 'RSS MiB', 'live heap MiB'],
      leak.map((l) => [fixed(l.calls), fixed(l.rssMb, 1), fixed(l.heapUsedMb, 1)]),
    ),
  );

  const check = rows.filter((r) => r.name === 'check_availability' && r.setup.includes('stateless SSE'));
  const growth = leak.at(-1)!.rssMb / leak.at(-2)!.rssMb - 1;
  const heapGrowth = leak.at(-1)!.heapUsedMb / leak.at(-2)!.heapUsedMb - 1;
  const targets: [string, string, boolean][] = [
    ...check.map((r): [string, string, boolean] => [
      `check_availability ≥ 3x floor (${r.setup.split(',')[0]})`,
      ratio(r.result.rps / floor),
      r.result.rps >= 3 * floor,
    ]),
    ...check.map((r): [string, string, boolean] => [
      `  the same in server CPU per request (${r.setup.split(',')[0]})`,
      ratio(rows[1]!.result.cpuUsPerRequest / r.result.cpuUsPerRequest),
      rows[1]!.result.cpuUsPerRequest >= 3 * r.result.cpuUsPerRequest,
    ]),
    ...check.map((r): [string, string, boolean] => [
      `p99 ≤ 15 ms at ${CONNECTIONS} connections (${r.setup.split(',')[0]})`,
      `${fixed(r.result.p99)} ms`,
      r.result.p99 <= 15,
    ]),
    [
      `RSS growth ≤ 10% from ${fixed(LEAK_STEP)} to ${fixed(2 * LEAK_STEP)} calls`,
      `${(growth * 100).toFixed(1)}%`,
      growth <= 0.1,
    ],
    [`  live heap growth over the same calls`, `${(heapGrowth * 100).toFixed(1)}%`, heapGrowth <= 0.1],
    ...['SQLite', 'PostgreSQL'].flatMap((db): [string, string, boolean][] => {
      const curve = costs.filter((c) => c.database === db);
      if (curve.length < 2) return [];
      const cost = curve[0]!.result.rps / curve.at(-1)!.result.rps;
      return [[`cost ≤ 1.5x from 1k to 100k appointments (${db})`, ratio(cost), cost <= 1.5]];
    }),
    [`start-up < 1 s on SQLite (${starts[0]!.label})`, `${fixed(starts[0]!.ms)} ms`, starts[0]!.ms < 1000],
  ];
  out.push(
    '',
    'Targets:',
    table(
      ['target', 'measured', 'met'],
      targets.map(([name, value, met]) => [name, value, met ? 'yes' : 'NO']),
    ),
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(): Promise<void> {
  const started = Date.now();
  log('building the server (tsc)');
  const build = buildHoldDesk();
  try {
    await benchmark(build.bin);
  } finally {
    build.dispose();
  }
  log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function benchmark(bin: string): Promise<void> {
  await baselines();
  const databases: BenchDatabase[] = [sqliteDatabase()];
  if (POSTGRES_URL) databases.push(await postgresDatabase(POSTGRES_URL));
  else log('no --postgres and no HOLDDESK_TEST_DATABASE_URL: PostgreSQL rows are skipped');
  for (const database of databases) {
    try {
      await toolRows(bin, database);
    } finally {
      await database.dispose();
    }
  }
  await transportRows(bin);
  const costs: CostPoint[] = [];
  for (const make of [
    sqliteDatabase,
    ...(POSTGRES_URL && !QUICK ? [() => postgresDatabase(POSTGRES_URL)] : []),
  ]) {
    const database = await make();
    try {
      costs.push(...(await costCurve(bin, database)));
    } finally {
      await database.dispose();
    }
  }
  const leak = await leakCheck(bin);
  const starts = await startups(bin);
  report(costs, leak, starts);
}

await main();
