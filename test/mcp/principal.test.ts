import { describe, expect, it } from 'vitest';
import { checkToolAccess, principalOf, SCOPE, toAuthInfo, type Principal } from '../../src/mcp/principal.js';
import { toolResult } from '../../src/mcp/tool-result.js';
import { TOOLS } from '../../src/mcp/tools.js';

const service: Principal = {
  subject: 'client:alexa',
  scopes: [SCOPE.service],
  tier: 'service',
  clientId: 'alexa',
};
const user: Principal = {
  subject: 'user:dana',
  scopes: [SCOPE.tools, SCOPE.resources],
  tier: 'user',
  clientId: 'alexa',
};

describe('scope policy', () => {
  it('names public and user tools as the reference does', () => {
    const byAccess = (access: string) =>
      TOOLS.filter((t) => t.access === access)
        .map((t) => t.name)
        .sort();
    expect(byAccess('public')).toEqual([
      'answer_office_faq',
      'check_availability',
      'estimate_home_insurance_quote_range',
    ]);
    expect(byAccess('user')).toEqual([
      'book_appointment',
      'cancel_appointment',
      'get_appointment_status',
      'request_human_approval',
    ]);
  });

  it('lets any valid token use public tools', () => {
    expect(checkToolAccess('public', service)).toBeUndefined();
    expect(checkToolAccess('public', user)).toBeUndefined();
  });

  it('refuses a user tool to a service token with the reference result', () => {
    const refused = checkToolAccess('user', service);
    expect(toolResult(refused!).structuredContent).toEqual({
      ok: false,
      error: {
        code: 'insufficient_scope',
        required_scope: 'mcp:tools',
        granted_scopes: ['mcp:service'],
        grant_type_hint: 'authorization_code',
        message: 'This tool acts for a specific caller and needs a user-level token.',
      },
      spoken_summary: 'I need you to link your account before I can do that for you.',
    });
  });

  it('fails closed without a principal, even for public tools', () => {
    expect(checkToolAccess('public', undefined)).toMatchObject({
      ok: false,
      error: { code: 'unauthenticated' },
    });
    expect(checkToolAccess('user', undefined)).toMatchObject({
      ok: false,
      error: { code: 'unauthenticated' },
    });
  });

  it('carries the principal through the SDK auth info and nothing else', () => {
    expect(principalOf(toAuthInfo(user, 'tok'))).toEqual(user);
    expect(principalOf(undefined)).toBeUndefined();
    expect(
      principalOf({ token: 't', clientId: 'c', scopes: [], extra: { principal: { subject: 42 } } }),
    ).toBeUndefined();
  });
});

describe('tool results', () => {
  it('put the same JSON in structured content and in the text block', () => {
    const value = { spoken_summary: 'hi', n: 1 };
    const result = toolResult({ ok: true, value });
    expect(result.structuredContent).toEqual({ ok: true, spoken_summary: 'hi', n: 1 });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  });

  it('speak the nearest alternatives when a slot was taken', () => {
    const result = toolResult({
      ok: false,
      error: {
        code: 'slot_unavailable',
        message: 'taken',
        alternatives: [{ date: '2026-09-16', start_time: '10:30' }],
      },
    });
    expect(result.structuredContent?.spoken_summary).toContain('Wednesday, September 16 at 10:30 AM');
  });

  it('speak the refusal message otherwise', () => {
    const result = toolResult({
      ok: false,
      error: { code: 'invalid_contact', message: 'Please give a phone number.' },
    });
    expect(result.structuredContent?.spoken_summary).toBe('Please give a phone number.');
  });
});
