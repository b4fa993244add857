import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcVerifier } from '../../src/gateway/oidc.js';
import { createLogger } from '../../src/logger.js';
import { staffAccounts } from '../../src/store/staff.js';
import { DIALECTS } from '../support/databases.js';
import { staffTool, startGateway, type GatewayHarness } from './support.js';
import { connectClient } from '../support/server.js';

const AUDIENCE = 'holddesk-gateway';
const logger = createLogger({ logLevel: 'silent' });

/** A small OpenID provider: a discovery document and a JWKS, both changeable by the test. */
async function startProvider() {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const state = { discoveryIssuer: '', discoveryStatus: 200, hits: 0 };
  const server: Server = createServer((req, res) => {
    state.hits += 1;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.statusCode = state.discoveryStatus;
      res.end(JSON.stringify({ issuer: state.discoveryIssuer, jwks_uri: `${issuer}/jwks` }));
    } else if (req.url === '/jwks') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.discoveryIssuer = issuer;
  const sign = (
    claims: Record<string, unknown>,
    options: {
      key?: CryptoKey | Uint8Array;
      alg?: string;
      issuer?: string;
      audience?: string;
      expires?: string;
    } = {},
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: options.alg ?? 'ES256', kid: 'k1' })
      .setIssuer(options.issuer ?? issuer)
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(options.expires ?? '10m')
      .sign(options.key ?? privateKey);
  return { issuer, state, sign, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the OIDC verifier', () => {
  it('retries discovery after a failure, and refuses a document naming another issuer', async () => {
    const provider = await startProvider();
    try {
      const verifier = oidcVerifier(
        { issuer: provider.issuer, audience: AUDIENCE },
        () => new Date(),
        logger,
      );
      const token = await provider.sign({ preferred_username: 'sam' });
      // A provider that cannot be reached or describes another issuer refuses the token (401, not 500).
      provider.state.discoveryStatus = 500;
      expect(await verifier.verify(token)).toBeUndefined();
      provider.state.discoveryStatus = 200;
      provider.state.discoveryIssuer = 'https://impostor.example';
      expect(await verifier.verify(token)).toBeUndefined();
      expect(provider.state.hits).toBe(2);
      provider.state.discoveryIssuer = provider.issuer;
      expect(await verifier.verify(token)).toBe('sam');
      // Discovery is cached once it succeeded; only the keys were fetched besides.
      expect(await verifier.verify(token)).toBe('sam');
      expect(provider.state.hits).toBe(4);
      expect(await verifier.verify('not-a-jwt')).toBeUndefined();
    } finally {
      await provider.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skipReason)(`staff JWTs from an OpenID provider on ${dialect.name}`, () => {
    let provider: Awaited<ReturnType<typeof startProvider>>;
    let harness: GatewayHarness;

    const initialize = (token: string) =>
      fetch(`${harness.server.url}/staff/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'probe', version: '1' },
          },
        }),
      });

    beforeAll(async () => {
      provider = await startProvider();
      harness = await startGateway(dialect, {
        settings: { oidcIssuer: provider.issuer, oidcAudience: AUDIENCE },
      });
      await harness.staffToken('sam');
      await harness.staffToken('gone');
      await staffAccounts(harness.store.db, harness.officeId).disable('gone', new Date().toISOString());
    });

    afterAll(async () => {
      await harness?.dispose();
      await provider?.close();
    });

    it('accepts a JWT that names an enabled staff account', async () => {
      const token = await provider.sign({ preferred_username: 'sam' });
      const client = await connectClient(`${harness.server.url}/staff/mcp`, token);
      expect(await staffTool(client, 'gateway_status')).toMatchObject({ ok: true });
      await client.close();
    });

    it('refuses wrong audiences, issuers, keys, algorithms, expired tokens and unknown or disabled staff', async () => {
      const { privateKey: otherKey } = await generateKeyPair('ES256');
      const refused = [
        await provider.sign({ preferred_username: 'sam' }, { audience: 'someone-else' }),
        await provider.sign({ preferred_username: 'sam' }, { issuer: 'https://impostor.example' }),
        await provider.sign({ preferred_username: 'sam' }, { key: otherKey }),
        await provider.sign(
          { preferred_username: 'sam' },
          { alg: 'HS256', key: new TextEncoder().encode('x'.repeat(32)) },
        ),
        await provider.sign({ preferred_username: 'sam' }, { expires: '-5m' }),
        await provider.sign({ preferred_username: 'nobody' }),
        await provider.sign({ preferred_username: 'gone' }),
        await provider.sign({ sub: 'sam' }),
      ];
      for (const token of refused) expect((await initialize(token)).status).toBe(401);
    });
  });
}
