// The one error class of the service and its one envelope (spec 7.1-7.3). An error's HTTP status
// follows from its code; whatever throws it, every answer that carries it (the app's error handler, the
// edge entry, the sidecar's refused upgrades, Node's own refusals) writes `errorEnvelope(err)`.

/** Every error code and the status it answers with. */
const STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PERMISSION_DENIED: 403,
  RESOURCE_NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  GONE: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_ERROR: 422,
  ACCOUNT_LOCKED: 423,
  CONFIRMATION_REQUIRED: 428,
  RATE_LIMITED: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  INTERNAL_SERVER_ERROR: 500,
  /** A peer this request depends on (an OAuth provider) failed or answered something unusable. */
  UPSTREAM_FAILED: 502,
  SERVICE_NOT_READY: 503,
  SERVER_DRAINING: 503,
} as const;

export type ErrorCode = keyof typeof STATUS;

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly code: ErrorCode;
  readonly detail: string | ValidationIssue[];
  /** Extra fields merged into the body (fields, retry_after, health, required, body...). */
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string | ValidationIssue[],
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(typeof detail === "string" ? detail : `${code}: ${detail.map((d) => d.msg).join("; ")}`);
    this.status = STATUS[code];
    this.code = code;
    this.detail = detail;
    this.extra = extra;
    this.headers = headers;
  }

  /** 401: no credential, or one that is not valid. */
  static unauthorized(detail: string, extra?: Record<string, unknown>, headers?: Record<string, string>): ApiError {
    return new ApiError("UNAUTHORIZED", detail, extra, headers);
  }

  /** 403: the caller is known but may not do this. */
  static forbidden(detail: string, extra?: Record<string, unknown>): ApiError {
    return new ApiError("PERMISSION_DENIED", detail, extra);
  }

  /** 409: the request contradicts the stored state (a duplicate, a dependent, a state that forbids it). */
  static conflict(detail: string, extra?: Record<string, unknown>): ApiError {
    return new ApiError("CONFLICT", detail, extra);
  }

  /** 404 naming the resource and the id (spec 7.3). */
  static notFound(resource: string, id: string | number): ApiError {
    return new ApiError("RESOURCE_NOT_FOUND", `${resource} ${id} was not found.`);
  }

  static validation(issues: ValidationIssue[], body?: string): ApiError {
    const fields: Record<string, string> = {};
    for (const i of issues) {
      const key = i.loc.filter((p) => p !== "body" && p !== "query" && p !== "path").join(".");
      if (key && !(key in fields)) fields[key] = i.msg;
    }
    const extra: Record<string, unknown> = { fields };
    if (body !== undefined) extra.body = body.slice(0, 500);
    return new ApiError("VALIDATION_ERROR", issues, extra);
  }
}

/** The spec's JSON body of an error (7.1). */
export function errorEnvelope(err: ApiError): Record<string, unknown> {
  return { error_code: err.code, detail: err.detail, ...err.extra };
}
