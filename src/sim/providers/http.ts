import { ProviderError } from '../chat.js';

/**
 * One JSON POST to a model server. Every failure (refused connection, timeout, non-2xx, a body that
 * is not JSON) becomes a `ProviderError`, which is what the fallback wrapper switches on.
 */
export async function postJson(
  url: string,
  body: unknown,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ProviderError(`cannot reach ${new URL(url).origin}: ${(error as Error).message}`);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    throw new ProviderError(`${new URL(url).origin} answered ${response.status}: ${text.slice(0, 200)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(`${new URL(url).origin} answered something that is not JSON`);
  }
}
