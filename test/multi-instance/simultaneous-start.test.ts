import { afterEach, describe, expect, it } from 'vitest';
import { auditTrail } from '../../src/store/audit.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/store.js';
import { DIALECTS } from '../support/databases.js';
import { CALLBACK, CLIENT_ID, CLIENT_SECRET, DEMO_PASSWORD, DEMO_USER } from '../support/oauth.js';
import { HoldDeskProcess } from '../reliability/support/holddesk-process.js';
import { callTool } from '../reliability/support/mcp-call.js';
import { PUBLIC_URL } from './support.js';
import { suiteTitle } from '../reliability/support/titles.js';

/**
 * Three instances started at the same moment on an empty PostgreSQL schema, as an orchestrator
 * starting a fresh deployment would: exactly one of them migrates (the migrator takes a lock), the
 * others wait and find the schema ready, the start-up records (OAuth client, demo caller, desk
 * account) are created once, and all three serve.
 */
const postgres = DIALECTS.find((d) => d.name === 'postgres')!;
const INSTANCES = 3;

let cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe.skipIf(postgres.skipReason !== undefined)(
  suiteTitle('instances starting together on postgres', postgres.skipReason),
  () => {
    it(
      `${INSTANCES} instances on an empty schema all start, and the schema is migrated once`,
      { timeout: 120_000 },
      async () => {
        const database = await postgres.create();
        cleanups.push(() => database.dispose());
        const env = {
          HOLDDESK_AUTH: 'oauth',
          HOLDDESK_OAUTH_ISSUER: PUBLIC_URL,
          HOLDDESK_OAUTH_CLIENT_ID: CLIENT_ID,
          HOLDDESK_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
          HOLDDESK_OAUTH_REDIRECT_URIS: CALLBACK,
          HOLDDESK_DEMO_USERNAME: DEMO_USER,
          HOLDDESK_DEMO_PASSWORD: DEMO_PASSWORD,
        };
        const started = await Promise.allSettled(
          Array.from({ length: INSTANCES }, () => HoldDeskProcess.start({ target: database.target, env })),
        );
        for (const result of started)
          if (result.status === 'fulfilled') cleanups.push(() => result.value.stop());
        expect(started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual(
          Array.from({ length: INSTANCES }, () => 'started'),
        );
        const instances = started.map((r) => (r as PromiseFulfilledResult<HoldDeskProcess>).value);

        const store = await openStore(database.target, { migrate: false });
        cleanups.push(() => store.close());
        // Nothing left to apply, and every migration recorded exactly once.
        expect(await migrateToLatest(store.db, 'postgres')).toEqual([]);
        const applied = await store.db
          .selectFrom('kysely_migration' as never)
          .select('name' as never)
          .execute();
        const names = applied.map((row) => (row as { name: string }).name);
        expect(names.length).toBeGreaterThan(0);
        expect(new Set(names).size).toBe(names.length);
        expect(await store.db.selectFrom('oauth_clients').select('client_id').execute()).toEqual([
          { client_id: CLIENT_ID },
        ]);
        expect(await store.db.selectFrom('caller_accounts').select('username').execute()).toEqual([
          { username: DEMO_USER },
        ]);
        expect(await store.db.selectFrom('staff_accounts').select('username').execute()).toEqual([
          { username: 'staff' },
        ]);

        // Every instance serves: a service token from its own token endpoint opens its own /mcp.
        for (const [i, instance] of instances.entries()) {
          expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
          const token = await fetch(`${instance.url}/oauth/token`, {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
            },
            body: 'grant_type=client_credentials',
          }).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
          const open = await callTool(
            instance.mcpUrl,
            'check_availability',
            { date: '2026-09-16', service: 'consultation' },
            token,
          );
          expect(open, `instance ${i + 1}`).toMatchObject({ status: 200, result: { ok: true } });
        }
        expect(await auditTrail(store.db, 'harborview', 'postgres').verify()).toMatchObject({ intact: true });
      },
    );
  },
);
