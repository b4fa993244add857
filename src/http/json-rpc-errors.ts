/** A JSON-RPC error sent as a plain HTTP response, for failures before any server sees the message. */
export function jsonRpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** `401 {"error":"unauthorized"}`; no `WWW-Authenticate` unless a challenge is asked for (Alexa+ wants none). */
export function unauthorizedResponse(challenge?: string): Response {
  return new Response(JSON.stringify({ error: 'unauthorized' }), {
    status: 401,
    headers: { 'content-type': 'application/json', ...(challenge ? { 'www-authenticate': challenge } : {}) },
  });
}
