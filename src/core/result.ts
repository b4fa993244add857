/**
 * Domain refusals are values, never exceptions (DESIGN.md "Conventions"). Every rule in `core`
 * answers with a `Result`, and adapters turn a refusal into the caller-facing `{ok:false, error}`.
 */
export interface Refusal<Code extends string = string> {
  readonly ok: false;
  readonly error: { readonly code: Code; readonly message: string } & Readonly<Record<string, unknown>>;
}

export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

export type Result<T, Code extends string = string> = Success<T> | Refusal<Code>;

export function success<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function refusal<Code extends string>(
  code: Code,
  message: string,
  extra: Readonly<Record<string, unknown>> = {},
): Refusal<Code> {
  return { ok: false, error: { ...extra, code, message } };
}
