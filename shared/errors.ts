// The one error class of the service. Whatever throws it, the envelope in functions/errors.ts turns it
// into the spec's JSON body (section 7).

export type ErrorCode =
  | "INTERNAL_SERVER_ERROR"
  | "VALIDATION_ERROR"
  | "RESOURCE_NOT_FOUND"
  | "RATE_LIMITED"
  | "PERMISSION_DENIED"
  | "UNAUTHORIZED"
  | "SERVICE_NOT_READY"
  | "SERVER_DRAINING"
  | "PAYLOAD_TOO_LARGE"
  | "GONE"
  | "CONFLICT"
  | "PRECONDITION_FAILED"
  | "CONFIRMATION_REQUIRED"
  | "ACCOUNT_LOCKED"
  | "BAD_REQUEST" | "REQUEST_TIMEOUT" | "REQUEST_HEADER_FIELDS_TOO_LARGE";

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
    status: number,
    code: ErrorCode,
    detail: string | ValidationIssue[],
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(typeof detail === "string" ? detail : `${code}: ${detail.map((d) => d.msg).join("; ")}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.extra = extra;
    this.headers = headers;
  }

  static notFound(resource: string, id: string | number): ApiError {
    return new ApiError(404, "RESOURCE_NOT_FOUND", `${resource} ${id} was not found.`);
  }

  static validation(issues: ValidationIssue[], body?: string): ApiError {
    const fields: Record<string, string> = {};
    for (const i of issues) {
      const key = i.loc.filter((p) => p !== "body" && p !== "query" && p !== "path").join(".");
      if (key && !(key in fields)) fields[key] = i.msg;
    }
    const extra: Record<string, unknown> = { fields };
    if (body !== undefined) extra.body = body.slice(0, 500);
    return new ApiError(422, "VALIDATION_ERROR", issues, extra);
  }
}
