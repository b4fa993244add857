import { jsonRpcErrorResponse } from './json-rpc-errors.js';

/**
 * DNS-rebinding protection (MCP transports spec, "Security Warning": servers MUST validate the
 * Origin header). A page on an attacker's domain that resolves to 127.0.0.1 still sends its own Host
 * and Origin, so an unknown Host is 421 Misdirected Request and an unknown Origin 403.
 */
export interface OriginPolicy {
  readonly allowedHosts: ReadonlySet<string>;
  readonly allowedOrigins: ReadonlySet<string>;
}

export function originPolicy(
  port: number,
  extraHosts: readonly string[],
  extraOrigins: readonly string[],
): OriginPolicy {
  const loopback = ['127.0.0.1', 'localhost', '[::1]'];
  return {
    allowedHosts: new Set([
      ...loopback.map((h) => `${h}:${port}`),
      ...extraHosts.map((h) => h.toLowerCase()),
    ]),
    allowedOrigins: new Set([
      ...loopback.map((h) => `http://${h}:${port}`),
      ...extraOrigins.map((o) => o.replace(/\/$/, '')),
    ]),
  };
}

export function checkOrigin(request: Request, policy: OriginPolicy): Response | undefined {
  const host = request.headers.get('host')?.toLowerCase();
  if (!host || !policy.allowedHosts.has(host)) {
    return jsonRpcErrorResponse(421, -32000, 'Misdirected request: unknown Host header');
  }
  const origin = request.headers.get('origin');
  if (origin !== null && !policy.allowedOrigins.has(origin)) {
    return jsonRpcErrorResponse(403, -32000, 'Forbidden: unknown Origin header');
  }
  return undefined;
}
