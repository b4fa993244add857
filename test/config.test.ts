import { describe, expect, it } from 'vitest';
import { clockFor, ConfigError, parseConfig, readSettings } from '../src/config.js';

describe('configuration', () => {
  it('has defaults that serve locally on the embedded database', () => {
    const config = parseConfig(readSettings({}, {}));
    expect(config).toMatchObject({
      port: 8641,
      host: '127.0.0.1',
      auth: 'static',
      stateful: false,
      jsonResponse: false,
      database: { dialect: 'sqlite', path: './var/holddesk.db' },
      allowedHosts: [],
    });
  });

  it('reads HOLDDESK_* variables, and flags win over them', () => {
    const env = {
      HOLDDESK_PORT: '9000',
      HOLDDESK_HOST: 'localhost',
      HOLDDESK_DATABASE_URL: 'postgres://db/x',
    };
    expect(parseConfig(readSettings({}, env))).toMatchObject({
      port: 9000,
      host: 'localhost',
      database: { dialect: 'postgres' },
    });
    expect(parseConfig(readSettings({ port: '9100' }, env)).port).toBe(9100);
  });

  it('adds allowed hosts from flags to those from the environment', () => {
    const config = parseConfig(
      readSettings({ allowedHosts: 'b.example' }, { HOLDDESK_ALLOWED_HOSTS: 'a.example, c.example' }),
    );
    expect(config.allowedHosts).toEqual(['b.example', 'a.example', 'c.example']);
  });

  it('refuses an open /mcp on a non-loopback host unless told it is intended', () => {
    expect(() => parseConfig(readSettings({ host: '0.0.0.0' }, {}))).toThrow(
      /refusing to serve an open \/mcp/,
    );
    expect(parseConfig(readSettings({ host: '0.0.0.0', insecureOpen: 'true' }, {})).insecureOpen).toBe(true);
    expect(
      parseConfig(readSettings({ host: '0.0.0.0' }, { HOLDDESK_BEARER_TOKEN: 'x'.repeat(32) })).host,
    ).toBe('0.0.0.0');
  });

  it('refuses a short static bearer token', () => {
    expect(() => parseConfig(readSettings({}, { HOLDDESK_BEARER_TOKEN: 'short' }))).toThrow(
      'invalid configuration: HOLDDESK_BEARER_TOKEN: use at least 16 characters',
    );
  });

  it('names the flag of a flag-only setting', () => {
    expect(() => parseConfig({ stateful: 'maybe' })).toThrow(/--stateful/);
  });

  it('rejects a bad port and a bad fixed clock with one clear line', () => {
    expect(() => parseConfig(readSettings({ port: '70000' }, {}))).toThrow(ConfigError);
    expect(() => parseConfig(readSettings({}, { HOLDDESK_FIXED_NOW: 'tomorrow' }))).toThrow(
      /HOLDDESK_FIXED_NOW/,
    );
  });

  it('freezes the clock when HOLDDESK_FIXED_NOW is set, reading a zoneless time as UTC', () => {
    const config = parseConfig(readSettings({}, { HOLDDESK_FIXED_NOW: '2026-09-14T10:00:00' }));
    expect(clockFor(config)().toISOString()).toBe('2026-09-14T10:00:00.000Z');
    const live = clockFor(parseConfig({}))();
    expect(Math.abs(live.getTime() - Date.now())).toBeLessThan(1000);
  });
});
