/** A suite's title, saying why it is skipped when it is, so a skip is never silent in the report. */
export function suiteTitle(title: string, skipReason: string | undefined): string {
  return skipReason === undefined ? title : `${title} (skipped: ${skipReason})`;
}
