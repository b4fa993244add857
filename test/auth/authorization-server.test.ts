import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthorizationServer } from '../../src/auth/oauth/authorization-server.js';
import { sha256Hex } from '../../src/auth/secrets.js';
import { oauthStore } from '../../src/store/oauth.js';
import type { Store } from '../../src/store/store.js';
import { createTestStore, DIALECTS } from '../support/databases.js';

const SECRET = 'client-secret-0123456789abcdef';

describe('authorization server audience', () => {
  let store: Store;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ store, dispose } = await createTestStore(DIALECTS[0]!));
    await oauthStore(store.db, 'harborview').upsertClient({
      client_id: 'alexa',
      name: 'Alexa',
      secret_hash: sha256Hex(SECRET),
      redirect_uris: '["https://example.com/cb"]',
      created_at: new Date().toISOString(),
    });
  });

  afterEach(async () => {
    await dispose();
  });

  const serverFor = (resource: string) =>
    new AuthorizationServer(
      store,
      'harborview',
      { issuer: 'https://a.example', resource, accessTokenTtlSeconds: 600 },
      () => new Date(),
    );

  it('accepts a token only at the resource it was issued for', async () => {
    const mine = serverFor('https://a.example/mcp');
    const client = await mine.authenticateClient(undefined, { client_id: 'alexa', client_secret: SECRET });
    const { access_token } = await mine.token(client, { grant_type: 'client_credentials' });
    expect(await mine.verifyAccessToken(access_token)).toMatchObject({
      subject: 'client:alexa',
      tier: 'service',
    });
    expect(await serverFor('https://b.example/mcp').verifyAccessToken(access_token)).toBeUndefined();
  });

  it('does not accept a refresh token as an access token', async () => {
    const mine = serverFor('https://a.example/mcp');
    expect(await mine.verifyAccessToken('unknown-token')).toBeUndefined();
  });

  it('does not reveal whether a client exists through its error', async () => {
    const mine = serverFor('https://a.example/mcp');
    const unknown = await mine
      .authenticateClient(undefined, { client_id: 'nobody', client_secret: 'x' })
      .catch((e: Error) => e.message);
    const wrong = await mine
      .authenticateClient(undefined, { client_id: 'alexa', client_secret: 'x' })
      .catch((e: Error) => e.message);
    expect(unknown).toBe(wrong);
  });
});
