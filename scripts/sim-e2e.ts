/**
 * Drives the whole journey through the simulator's HTTP API, then scores tool selection over the
 * utterance corpus (test/sim/corpus.json), once per provider:
 *
 *   npx tsx scripts/sim-e2e.ts
 *
 * The scripted router always runs. Ollama runs when it answers at OLLAMA_URL (model
 * SIM_OLLAMA_MODEL), an OpenAI-compatible server when SIM_OPENAI_URL and SIM_OPENAI_MODEL are set.
 * Models run without the scripted fallback, so a failure counts as a miss. Each provider gets its
 * own `holddesk demo` on free ports and a throw-away SQLite database, clock frozen on a Monday.
 * The script plays the caller on the consent page and the staff member on the desk's JSON API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo, type RunningDemo } from '../src/commands/demo.js';
import { parseConfig } from '../src/config.js';
import type { ChatProvider } from '../src/sim/chat.js';
import { readSimConfig, type SimConfig } from '../src/sim/config.js';
import { OllamaProvider } from '../src/sim/providers/ollama.js';
import { OpenAiProvider } from '../src/sim/providers/openai.js';
import { ScriptedProvider } from '../src/sim/providers/scripted.js';
import type { TraceEvent } from '../src/sim/trace.js';
import { loadCorpus, score, type Choice } from '../test/sim/corpus.js';
import { approveOnDesk, consentAt } from '../test/sim/support.js';

const MODEL_TIMEOUT_MS = 120_000;
const out = (line = '') => process.stdout.write(`${line}\n`);

interface Turn {
  status: 'reply' | 'needs_link';
  reply: string;
  cards: { kind: string; status?: string; badge?: string; appointment_id?: string }[];
  trace: TraceEvent[];
  link_url?: string;
}

/** A browser session on the simulator: its cookie, JSON in and out. */
class Visitor {
  private cookie = '';
  constructor(private readonly simUrl: string) {}

  async post<T>(path: string, body: unknown = {}): Promise<T> {
    const response = await fetch(`${this.simUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: this.cookie },
      body: JSON.stringify(body),
    });
    const set = response.headers.getSetCookie().find((c) => c.startsWith('holddesk_sim='));
    if (set) this.cookie = set.split(';')[0]!;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  say(text: string): Promise<Turn> {
    return this.post<Turn>('/api/utterance', { text });
  }

  async follow(location: URL): Promise<number> {
    const response = await fetch(location, { headers: { cookie: this.cookie } });
    await response.text();
    return response.status;
  }
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`journey step failed: ${what}`);
}

async function journey(demo: RunningDemo): Promise<void> {
  const visitor = new Visitor(demo.simUrl);
  await visitor.post('/api/session');
  const step = async (text: string) => {
    const turn = await visitor.say(text);
    out(`  caller: ${text}\n  assistant: ${turn.reply}`);
    return turn;
  };
  const openings = await step('Do you have any openings for a consultation on Wednesday?');
  check(
    openings.cards.some((c) => c.kind === 'slots'),
    'openings card',
  );
  let hold = await step('Please book 10:30 for Dana Reyes, my number is 630-555-0142.');
  if (hold.status === 'needs_link') {
    out('  (account linking: the caller signs in on the consent page)');
    const status = await visitor.follow(await consentAt(hold.link_url!, demo.callerLogin));
    check(status === 200, 'link callback');
    hold = await visitor.post<Turn>('/api/link/resume');
    out(`  assistant: ${hold.reply}`);
  }
  const card = hold.cards.find((c) => c.kind === 'appointment');
  check(card?.badge === 'Pending staff approval', 'pending hold');
  await step('What documents should I bring for a quote?');
  await step(
    'How much would home insurance cost for a house in Illinois built in 1995 with $350,000 of coverage?',
  );
  const pending = await step('Is my appointment confirmed yet?');
  check(
    pending.cards.some((c) => c.status === 'pending_approval'),
    'status pending',
  );
  await approveOnDesk(demo.holddeskUrl, card!.appointment_id!, demo.deskLogin);
  out('  (staff approves the hold on the desk)');
  const confirmed = await step('Is it confirmed now?');
  check(
    confirmed.cards.some((c) => c.badge === 'Confirmed by staff'),
    'confirmed by staff',
  );
}

/** The provider's own first choice in a turn; arguments as they reached HoldDesk when it got that far. */
function firstChoice(trace: readonly TraceEvent[]): Choice | undefined {
  const model = trace.find((e): e is Extract<TraceEvent, { kind: 'model' }> => e.kind === 'model');
  const chosen = model?.tool_calls[0];
  if (!chosen) return undefined;
  const sent = trace.find((e) => e.kind === 'mcp' && e.method === 'tools/call' && e.tool === chosen.name);
  return { name: chosen.name, arguments: (sent?.kind === 'mcp' && sent.arguments) || chosen.arguments };
}

async function scoreCorpus(demo: RunningDemo): Promise<{ tool: number; args: number; total: number }> {
  const corpus = loadCorpus();
  let tool = 0;
  let args = 0;
  for (const entry of corpus.utterances) {
    const visitor = new Visitor(demo.simUrl);
    await visitor.post('/api/session');
    const turn = await visitor.say(entry.utterance);
    const result = score(entry, firstChoice(turn.trace));
    if (result.tool) tool += 1;
    if (result.arguments) args += 1;
    if (!result.arguments) {
      const chosen = firstChoice(turn.trace);
      out(
        `  miss: "${entry.utterance}" -> ${chosen ? `${chosen.name} ${JSON.stringify(chosen.arguments)}` : 'no tool'}`,
      );
    }
  }
  return { tool, args, total: corpus.utterances.length };
}

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1500) })).ok;
  } catch {
    return false;
  }
}

async function providers(sim: SimConfig): Promise<ChatProvider[]> {
  const list: ChatProvider[] = [new ScriptedProvider()];
  if (await reachable(`${sim.ollamaUrl}/api/tags`)) {
    list.push(
      new OllamaProvider({ baseUrl: sim.ollamaUrl, model: sim.ollamaModel, timeoutMs: MODEL_TIMEOUT_MS }),
    );
  } else {
    out(`ollama: nothing answers at ${sim.ollamaUrl}, skipped`);
  }
  if (sim.openaiUrl && sim.openaiModel) {
    list.push(
      new OpenAiProvider({
        baseUrl: sim.openaiUrl,
        model: sim.openaiModel,
        apiKey: sim.openaiApiKey,
        timeoutMs: MODEL_TIMEOUT_MS,
      }),
    );
  } else {
    out('openai-compatible: SIM_OPENAI_URL / SIM_OPENAI_MODEL not set, skipped');
  }
  return list;
}

const sim = readSimConfig(process.env);
const results: string[] = [];
let failed = false;
for (const provider of await providers(sim)) {
  const dir = mkdtempSync(join(tmpdir(), 'holddesk-sim-e2e-'));
  const demo = await startDemo(
    parseConfig({
      port: '0',
      logLevel: 'silent',
      database: join(dir, 'holddesk.db'),
      fixedNow: '2026-09-14T15:00:00Z',
    }),
    readSimConfig({ SIM_PORT: '0', SIM_LLM: 'scripted' }),
    { version: 'sim-e2e', provider },
  );
  try {
    out(`\n== ${provider.name}: journey ==`);
    await journey(demo);
    out(`== ${provider.name}: corpus ==`);
    const { tool, args, total } = await scoreCorpus(demo);
    const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
    results.push(
      `${provider.name}: tool selection ${tool}/${total} (${pct(tool)}), tool + arguments ${args}/${total} (${pct(args)})`,
    );
  } catch (error) {
    failed = true;
    results.push(`${provider.name}: FAILED: ${(error as Error).message}`);
  } finally {
    await demo.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
out('\nTool-selection accuracy over the corpus:');
for (const line of results) out(`  ${line}`);
process.exitCode = failed ? 1 : 0;
