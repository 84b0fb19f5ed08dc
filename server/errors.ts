// Every failure the API reports is an ApiError; the error handler turns it into the one error envelope
// {"success": false, "error": {"code", "message", "details"}}. Anything else becomes 500 INTERNAL_ERROR.
// BAD_REQUEST, REQUEST_TIMEOUT and HEADERS_TOO_LARGE are HTTP-level failures that Node's parser detects
// (server/http/client-error.ts); VALIDATION_ERROR is for a well-formed request with bad content.
// PRECONDITION_FAILED and RANGE_NOT_SATISFIABLE come from the conditional and range headers of file downloads
// (the `send` library's 412/416, server/http/error-handler.ts); EXPECTATION_FAILED is an `Expect` other than
// 100-continue (server/http/header-checks.ts).

export type ErrorCode =
  | "VALIDATION_ERROR"
  | "BAD_REQUEST"
  | "INVALID_API_KEY"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "REQUEST_TIMEOUT"
  | "PRECONDITION_FAILED"
  | "RANGE_NOT_SATISFIABLE"
  | "EXPECTATION_FAILED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "HEADERS_TOO_LARGE"
  | "RATE_LIMIT_EXCEEDED"
  | "INTERNAL_ERROR"
  | "SERVICE_UNAVAILABLE";

export const STATUS_OF: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  INVALID_API_KEY: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PRECONDITION_FAILED: 412,
  RANGE_NOT_SATISFIABLE: 416,
  EXPECTATION_FAILED: 417,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** Every error code, for the OpenAPI document's enum. */
export const ERROR_CODES = Object.keys(STATUS_OF) as ErrorCode[];

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = STATUS_OF[code];
  }
}

/** No data for this location, province or risk type (404 NOT_FOUND). Thrown by services. */
export class NotFoundError extends ApiError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("NOT_FOUND", message, details);
    this.name = "NotFoundError";
  }
}

export class ValidationError extends ApiError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("VALIDATION_ERROR", message, details);
    this.name = "ValidationError";
  }
}

/**
 * The client went away (or its connection was closed on a timeout) before its request body arrived: there is
 * nobody to answer, and it is not a server error.
 */
export class ClientAbortedError extends Error {
  constructor() {
    super("client closed the connection before the request body was complete");
    this.name = "ClientAbortedError";
  }
}

export interface ErrorEnvelope {
  success: false;
  error: { code: ErrorCode; message: string; details: Record<string, unknown> };
}

export function errorEnvelope(err: ApiError): ErrorEnvelope {
  return { success: false, error: { code: err.code, message: err.message, details: err.details } };
}
