import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from '../../src/desk/csv.js';

describe('audit CSV', () => {
  it('quotes what RFC 4180 says must be quoted', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(-42)).toBe('-42');
    expect(csvRow(['a', null, 1])).toBe('a,,1\r\n');
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(formula).replace(/^"/, '').startsWith("'"), JSON.stringify(formula)).toBe(true);
    }
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
  });
});
