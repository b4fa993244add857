import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/sim/providers/scripted.js';
import { buildSystemPrompt } from '../../src/sim/prompt.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { bundledOfficeData } from '../support/office.js';
import { loadCorpus, score } from './corpus.js';

const corpus = loadCorpus();
const tools = TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: {} }));

describe('utterance corpus', () => {
  it('has at least 40 varied utterances covering every tool and no-tool answers', () => {
    expect(corpus.utterances.length).toBeGreaterThanOrEqual(40);
    const expected = new Set(corpus.utterances.map((e) => e.tool));
    for (const tool of TOOLS) expect(expected).toContain(tool.name);
    expect(expected).toContain(null);
    expect(new Set(corpus.utterances.map((e) => e.utterance)).size).toBe(corpus.utterances.length);
  });

  it('is routed by the scripted provider to the expected tool and arguments', async () => {
    const { office } = await bundledOfficeData();
    const system = buildSystemPrompt(
      { officeName: office.name, today: corpus.today, timezone: office.timezone, staff: office.staff },
      undefined,
    );
    const provider = new ScriptedProvider();
    const misses: string[] = [];
    for (const entry of corpus.utterances) {
      const reply = await provider.chat(
        [
          { role: 'system', content: system },
          { role: 'user', content: entry.utterance },
        ],
        tools,
      );
      const result = score(entry, reply.toolCalls[0]);
      if (!result.arguments)
        misses.push(`${entry.utterance} -> ${JSON.stringify(reply.toolCalls[0] ?? reply.content)}`);
    }
    expect(misses).toEqual([]);
  });

  it('scores a wrong tool and a wrong argument as misses', () => {
    const entry = corpus.utterances[0]!;
    expect(score(entry, undefined)).toMatchObject({ tool: false, arguments: false });
    expect(score(entry, { name: 'answer_office_faq', arguments: {} }).tool).toBe(false);
    expect(
      score(entry, { name: entry.tool!, arguments: { ...entry.arguments, date: '2026-01-01' } }),
    ).toMatchObject({
      tool: true,
      arguments: false,
      wrong: ['date'],
    });
  });
});
