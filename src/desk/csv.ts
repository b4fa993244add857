/**
 * CSV (RFC 4180) for the audit export. A cell a spreadsheet would read as a formula (starting with
 * `=`, `+`, `-`, `@`, tab or carriage return) is prefixed with `'`, so caller-provided text in the
 * trail cannot run in the spreadsheet of whoever opens the export (OWASP "CSV Injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 §2 asks. */
export function csvRow(values: readonly (string | number | null)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
