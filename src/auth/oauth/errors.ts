/**
 * OAuth 2.0 error responses (RFC 6749 §5.2), one class per error code, each knowing its HTTP status.
 * The token endpoint catches these in one place; anything else is a bug and becomes a generic 500.
 */
export class OAuthError extends Error {
  static readonly errorCode: string = 'server_error';
  readonly status: number = 400;

  get errorCode(): string {
    return (this.constructor as typeof OAuthError).errorCode;
  }

  toResponseObject(): { error: string; error_description: string } {
    return { error: this.errorCode, error_description: this.message };
  }
}

export class InvalidRequestError extends OAuthError {
  static override readonly errorCode = 'invalid_request';
}

/** §5.2: 401 when the client authenticated (or tried to) and failed. */
export class InvalidClientError extends OAuthError {
  static override readonly errorCode = 'invalid_client';
  override readonly status = 401;
}

export class InvalidGrantError extends OAuthError {
  static override readonly errorCode = 'invalid_grant';
}

export class UnauthorizedClientError extends OAuthError {
  static override readonly errorCode = 'unauthorized_client';
}

export class UnsupportedGrantTypeError extends OAuthError {
  static override readonly errorCode = 'unsupported_grant_type';
}

export class InvalidScopeError extends OAuthError {
  static override readonly errorCode = 'invalid_scope';
}

/** RFC 8707 §2: a `resource` the server does not serve. */
export class InvalidTargetError extends OAuthError {
  static override readonly errorCode = 'invalid_target';
}

export class AccessDeniedError extends OAuthError {
  static override readonly errorCode = 'access_denied';
}

export class UnsupportedResponseTypeError extends OAuthError {
  static override readonly errorCode = 'unsupported_response_type';
}
