/**
 * One stateless tool call over Streamable HTTP with `fetch`, the way hundreds of independent callers
 * would send it at once: no session, no initialize, just the POST. Network failures are returned,
 * not thrown, since a storm that kills a server expects some.
 */
export type CallOutcome =
  | { readonly kind: 'answered'; readonly status: number; readonly result: ToolAnswer | undefined }
  | { readonly kind: 'failed'; readonly error: string };

export interface ToolAnswer {
  readonly ok: boolean;
  readonly appointment_id?: string;
  readonly error?: { readonly code: string };
  readonly [key: string]: unknown;
}

let nextId = 0;

/** The JSON-RPC messages in a response body, whether it came as JSON or as server-sent events. */
export function messagesOf(body: string): unknown[] {
  if (body.startsWith('{') || body.startsWith('[')) return [JSON.parse(body) as unknown].flat();
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
}

export async function callTool(
  mcpUrl: string,
  name: string,
  args: Record<string, unknown>,
  token?: string,
): Promise<CallOutcome> {
  try {
    const response = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++nextId,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
    });
    const body = await response.text();
    if (response.status !== 200) return { kind: 'answered', status: response.status, result: undefined };
    const message = messagesOf(body)[0] as { result?: { structuredContent?: ToolAnswer } } | undefined;
    return { kind: 'answered', status: 200, result: message?.result?.structuredContent };
  } catch (error) {
    return { kind: 'failed', error: (error as Error).message };
  }
}
