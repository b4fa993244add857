import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ProviderError,
  type ChatMessage,
  type ChatProvider,
  type ModelReply,
  type ToolSpec,
} from '../../src/sim/chat.js';
import { readSimConfig } from '../../src/sim/config.js';
import { chooseProvider } from '../../src/sim/providers/choose.js';
import { FallbackProvider } from '../../src/sim/providers/fallback.js';
import { OllamaProvider } from '../../src/sim/providers/ollama.js';
import { OpenAiProvider } from '../../src/sim/providers/openai.js';
import { ScriptedProvider } from '../../src/sim/providers/scripted.js';

/** A local model server: records each request and answers with whatever the test queued. */
class FakeModelServer {
  readonly requests: { path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] =
    [];
  readonly answers: ((res: ServerResponse) => void)[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        this.requests.push({
          path: req.url ?? '',
          headers: req.headers,
          body: JSON.parse(raw) as Record<string, unknown>,
        });
        const answer = this.answers.shift();
        if (answer) answer(res);
        else res.writeHead(500).end('no answer queued');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  json(body: unknown, status = 200): void {
    this.answers.push((res) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    );
  }

  raw(text: string, status = 200): void {
    this.answers.push((res) => res.writeHead(status, { 'content-type': 'text/plain' }).end(text));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

const TOOLS: ToolSpec[] = [
  {
    name: 'check_availability',
    description: 'Open start times',
    parameters: {
      type: 'object',
      properties: { date: { type: 'string' }, service: { type: 'string' } },
      required: ['date', 'service'],
    },
  },
];
const ASK: ChatMessage[] = [
  { role: 'system', content: 'You are the front desk.' },
  { role: 'user', content: 'Any consultations on Wednesday?' },
];
const AFTER_TOOL: ChatMessage[] = [
  ...ASK,
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      {
        id: 'call_1',
        name: 'check_availability',
        arguments: { date: '2026-09-16', service: 'consultation' },
      },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_1',
    name: 'check_availability',
    content: '{"ok":true,"spoken_summary":"I have 9 AM."}',
  },
];

describe('model providers over their real wire formats', () => {
  const model = new FakeModelServer();
  beforeAll(() => model.start());
  afterAll(() => model.stop());
  afterEach(() => {
    model.requests.length = 0;
    model.answers.length = 0;
  });

  describe('Ollama /api/chat with native tools', () => {
    const ollama = () =>
      new OllamaProvider({ baseUrl: `${model.url}/`, model: 'qwen2.5:7b-instruct-q4_K_M', timeoutMs: 2000 });

    it('sends tools as functions and reads tool calls whose arguments are objects', async () => {
      model.json({
        model: 'qwen2.5:7b-instruct-q4_K_M',
        created_at: '2026-09-14T15:00:00Z',
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              function: {
                name: 'check_availability',
                arguments: { date: '2026-09-16', service: 'consultation' },
              },
            },
          ],
        },
        done_reason: 'stop',
        done: true,
      });
      const reply = await ollama().chat(ASK, TOOLS);
      expect(reply.toolCalls).toEqual([
        {
          id: expect.any(String) as string,
          name: 'check_availability',
          arguments: { date: '2026-09-16', service: 'consultation' },
        },
      ]);
      const request = model.requests[0]!;
      expect(request.path).toBe('/api/chat');
      expect(request.body).toMatchObject({
        model: 'qwen2.5:7b-instruct-q4_K_M',
        stream: false,
        messages: [
          { role: 'system', content: 'You are the front desk.' },
          { role: 'user', content: 'Any consultations on Wednesday?' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'check_availability',
              description: 'Open start times',
              parameters: TOOLS[0]!.parameters,
            },
          },
        ],
      });
    });

    it('sends the tool exchange back (assistant tool_calls, role tool with tool_name) and reads the reply', async () => {
      model.json({ message: { role: 'assistant', content: ' I have 9 AM on Wednesday. ' }, done: true });
      const reply = await ollama().chat(AFTER_TOOL, TOOLS);
      expect(reply).toEqual({ content: 'I have 9 AM on Wednesday.', toolCalls: [] });
      expect(model.requests[0]!.body.messages).toEqual([
        ...(model.requests[0]!.body.messages as unknown[]).slice(0, 2),
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              function: {
                name: 'check_availability',
                arguments: { date: '2026-09-16', service: 'consultation' },
              },
            },
          ],
        },
        {
          role: 'tool',
          content: '{"ok":true,"spoken_summary":"I have 9 AM."}',
          tool_name: 'check_availability',
        },
      ]);
    });

    it('accepts arguments sent as a JSON string', async () => {
      model.json({
        message: {
          content: '',
          tool_calls: [
            { id: 'x1', function: { name: 'check_availability', arguments: '{"date":"2026-09-16"}' } },
          ],
        },
      });
      expect((await ollama().chat(ASK, TOOLS)).toolCalls[0]).toEqual({
        id: 'x1',
        name: 'check_availability',
        arguments: { date: '2026-09-16' },
      });
    });

    it('turns every malformed answer into a ProviderError', async () => {
      model.json({ error: 'model "qwen" not found, try pulling it first' }, 404);
      await expect(ollama().chat(ASK, TOOLS)).rejects.toThrow(/answered 404/);
      model.raw('not json');
      await expect(ollama().chat(ASK, TOOLS)).rejects.toThrow(/not JSON/);
      model.json({ done: true });
      await expect(ollama().chat(ASK, TOOLS)).rejects.toThrow(/without a message/);
      model.json({ message: { tool_calls: [{ function: { arguments: {} } }] } });
      await expect(ollama().chat(ASK, TOOLS)).rejects.toThrow(/without a name/);
      model.json({
        message: { tool_calls: [{ function: { name: 'check_availability', arguments: '{oops' } }] },
      });
      await expect(ollama().chat(ASK, TOOLS)).rejects.toThrow(/not JSON/);
      model.json({ message: { tool_calls: [{ function: { name: 'check_availability', arguments: [1] } }] } });
      await expect(ollama().chat(ASK, TOOLS)).rejects.toThrow(/not an object/);
    });

    it('gives up on a model that does not answer in time, and on one that is not there', async () => {
      model.answers.push(() => undefined);
      const slow = new OllamaProvider({ baseUrl: model.url, model: 'm', timeoutMs: 100 });
      await expect(slow.chat(ASK, TOOLS)).rejects.toBeInstanceOf(ProviderError);
      const gone = new OllamaProvider({ baseUrl: 'http://127.0.0.1:9', model: 'm', timeoutMs: 1000 });
      await expect(gone.chat(ASK, TOOLS)).rejects.toThrow(/cannot reach/);
    });
  });

  describe('OpenAI-compatible /chat/completions', () => {
    const openai = (apiKey?: string) =>
      new OpenAiProvider({ baseUrl: `${model.url}/v1`, model: 'local-model', apiKey, timeoutMs: 2000 });

    it('sends tools and the bearer key, and reads tool calls whose arguments are JSON strings', async () => {
      model.json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'local-model',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_abc',
                  type: 'function',
                  function: {
                    name: 'check_availability',
                    arguments: '{"date":"2026-09-16","service":"consultation"}',
                  },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
      const reply = await openai('sk-test').chat(ASK, TOOLS);
      expect(reply).toEqual({
        content: '',
        toolCalls: [
          {
            id: 'call_abc',
            name: 'check_availability',
            arguments: { date: '2026-09-16', service: 'consultation' },
          },
        ],
      });
      const request = model.requests[0]!;
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe('Bearer sk-test');
      expect(request.body).toMatchObject({
        model: 'local-model',
        tool_choice: 'auto',
        tools: [
          { type: 'function', function: { name: 'check_availability', parameters: TOOLS[0]!.parameters } },
        ],
      });
    });

    it('echoes the tool exchange with tool_call_id and string arguments, without a key when none is set', async () => {
      model.json({
        choices: [
          { index: 0, message: { role: 'assistant', content: 'I have 9 AM.' }, finish_reason: 'stop' },
        ],
      });
      const reply = await openai().chat(
        [...AFTER_TOOL, { role: 'assistant', content: 'Anything else?' }],
        TOOLS,
      );
      expect(reply.content).toBe('I have 9 AM.');
      const request = model.requests[0]!;
      expect(request.headers.authorization).toBeUndefined();
      expect((request.body.messages as unknown[]).slice(2)).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: {
                name: 'check_availability',
                arguments: '{"date":"2026-09-16","service":"consultation"}',
              },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true,"spoken_summary":"I have 9 AM."}' },
        { role: 'assistant', content: 'Anything else?' },
      ]);
    });

    it('turns every malformed answer into a ProviderError', async () => {
      model.json({ error: { message: 'Invalid API key' } }, 401);
      await expect(openai().chat(ASK, TOOLS)).rejects.toThrow(/answered 401/);
      model.json({ choices: [] });
      await expect(openai().chat(ASK, TOOLS)).rejects.toThrow(/no message/);
      model.json({
        choices: [
          {
            message: {
              tool_calls: [{ id: 'c', function: { name: 'check_availability', arguments: '{nope' } }],
            },
          },
        ],
      });
      await expect(openai().chat(ASK, TOOLS)).rejects.toThrow(/not JSON/);
      model.json({
        choices: [
          {
            message: {
              tool_calls: [{ id: 'c', function: { name: 'check_availability', arguments: '"text"' } }],
            },
          },
        ],
      });
      await expect(openai().chat(ASK, TOOLS)).rejects.toThrow(/not an object/);
      model.json({ choices: [{ message: { tool_calls: [{ function: { arguments: '{}' } }] } }] });
      await expect(openai().chat(ASK, TOOLS)).rejects.toThrow(/without a name/);
      model.json({
        choices: [{ message: { tool_calls: [{ function: { name: 'check_availability', arguments: '' } }] } }],
      });
      expect((await openai().chat(ASK, TOOLS)).toolCalls[0]).toEqual({
        id: 'call-0',
        name: 'check_availability',
        arguments: {},
      });
    });
  });
});

describe('fallback wrapper', () => {
  class Flaky implements ChatProvider {
    readonly name = 'flaky';
    calls = 0;
    constructor(private failure: Error | undefined) {}
    fail(error: Error | undefined) {
      this.failure = error;
    }
    chat(): Promise<ModelReply> {
      this.calls += 1;
      return this.failure
        ? Promise.reject(this.failure)
        : Promise.resolve({ content: 'from the model', toolCalls: [] });
    }
  }

  it('answers from the scripted router when the model is down, skips the model during the cooldown, then tries again', async () => {
    let now = 1_000;
    const primary = new Flaky(new ProviderError('cannot reach http://127.0.0.1:11434'));
    const provider = new FallbackProvider(primary, new ScriptedProvider(), {
      cooldownMs: 30_000,
      now: () => now,
    });
    const first = await provider.chat(ASK, TOOLS);
    expect(first).toMatchObject({
      answeredBy: 'scripted',
      fallbackReason: 'cannot reach http://127.0.0.1:11434',
    });
    expect(first.toolCalls[0]).toMatchObject({ name: 'check_availability' });
    now += 10_000;
    expect(await provider.chat(ASK, TOOLS)).toMatchObject({
      answeredBy: 'scripted',
      fallbackReason: 'flaky is cooling down',
    });
    expect(primary.calls).toBe(1);
    now += 20_001;
    primary.fail(undefined);
    expect(await provider.chat(ASK, TOOLS)).toEqual({
      content: 'from the model',
      toolCalls: [],
      answeredBy: 'flaky',
    });
    expect(primary.calls).toBe(2);
  });

  it('does not hide bugs: an error that is not a provider failure is thrown', async () => {
    const provider = new FallbackProvider(new Flaky(new TypeError('bug')), new ScriptedProvider(), {
      cooldownMs: 1,
    });
    await expect(provider.chat(ASK, TOOLS)).rejects.toThrow('bug');
  });

  it('is chosen from SIM_LLM: scripted alone, a model behind the scripted fallback otherwise', () => {
    expect(chooseProvider(readSimConfig({ SIM_LLM: 'scripted' })).name).toBe('scripted');
    expect(chooseProvider(readSimConfig({})).name).toBe(
      'ollama:qwen2.5:7b-instruct-q4_K_M (fallback scripted)',
    );
    expect(
      chooseProvider(
        readSimConfig({
          SIM_LLM: 'openai',
          SIM_OPENAI_URL: 'http://127.0.0.1:8080/v1',
          SIM_OPENAI_MODEL: 'llama',
        }),
      ).name,
    ).toBe('openai:llama (fallback scripted)');
  });
});

describe('simulator configuration', () => {
  it('has the reference defaults', () => {
    expect(readSimConfig({})).toEqual({
      port: 8650,
      bind: '127.0.0.1',
      llm: 'ollama',
      ollamaUrl: 'http://127.0.0.1:11434',
      ollamaModel: 'qwen2.5:7b-instruct-q4_K_M',
      showDemoCreds: false,
    });
  });

  it('reads every SIM_* variable', () => {
    expect(
      readSimConfig({
        SIM_PORT: '9000',
        SIM_BIND: '0.0.0.0',
        SIM_PUBLIC_URL: 'https://sim.example.com/',
        SIM_LLM: 'openai',
        OLLAMA_URL: 'http://gpu:11434',
        SIM_OLLAMA_MODEL: 'llama3.1',
        SIM_OPENAI_URL: 'https://api.example.com/v1',
        SIM_OPENAI_MODEL: 'gpt',
        SIM_OPENAI_API_KEY: 'sk-x',
        SIM_SHOW_DEMO_CREDS: '1',
      }),
    ).toEqual({
      port: 9000,
      bind: '0.0.0.0',
      publicUrl: 'https://sim.example.com',
      llm: 'openai',
      ollamaUrl: 'http://gpu:11434',
      ollamaModel: 'llama3.1',
      openaiUrl: 'https://api.example.com/v1',
      openaiModel: 'gpt',
      openaiApiKey: 'sk-x',
      showDemoCreds: true,
    });
  });

  it('refuses bad values with the variable named', () => {
    expect(() => readSimConfig({ SIM_LLM: 'bedrock' })).toThrow(/SIM_LLM/);
    expect(() => readSimConfig({ SIM_PORT: '70000' })).toThrow(/SIM_PORT/);
    expect(() => readSimConfig({ SIM_PUBLIC_URL: 'ftp://x' })).toThrow(/SIM_PUBLIC_URL/);
    expect(() => readSimConfig({ SIM_LLM: 'openai' })).toThrow(/SIM_OPENAI_URL/);
  });
});
