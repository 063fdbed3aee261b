// The API's error envelope (spec 7.1) as one error the screens can show: the sentence, and for a 422 the
// message of each field (from `fields`, else from the `loc` of each issue).
export interface ErrorBody {
  error_code?: string;
  detail?: string | Array<{ loc: Array<string | number>; msg: string; type: string }>;
  fields?: Record<string, string>;
  retry_after?: number;
}

export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  /** A 429's wait in seconds: its Retry-After header, else the envelope's retry_after; undefined otherwise. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: ErrorBody | undefined, retryAfterHeader?: string | null) {
    super(ApiProblem.sentence(status, body));
    this.status = status;
    this.code = body?.error_code ?? `HTTP_${status}`;
    this.fields = { ...ApiProblem.issueFields(body), ...(body?.fields ?? {}) };
    const header = Number(retryAfterHeader);
    this.retryAfter =
      status !== 429 ? undefined : retryAfterHeader && Number.isFinite(header) && header >= 0 ? header : (body?.retry_after ?? undefined);
  }

  private static sentence(status: number, body: ErrorBody | undefined): string {
    if (status === 412)
      return "Someone else changed this record since you opened it. Load their version to see the change, then edit again.";
    if (typeof body?.detail === "string") return body.detail;
    if (Array.isArray(body?.detail)) return body.detail.map((i) => `${i.loc.filter((p) => p !== "body").join(".")}: ${i.msg}`).join("; ");
    if (status === 429) return `Too many requests; try again in ${body?.retry_after ?? "a few"} seconds.`;
    return `The server answered ${status}.`;
  }

  private static issueFields(body: ErrorBody | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    if (!Array.isArray(body?.detail)) return out;
    for (const issue of body.detail) {
      const path = issue.loc.filter((p) => p !== "body" && p !== "query" && p !== "path");
      const field = path[0];
      if (typeof field === "string" && !(field in out)) out[field] = issue.msg;
      // A nested field (provider_config.url) is also addressable by its whole path.
      const dotted = path.join(".");
      if (path.length > 1 && !(dotted in out)) out[dotted] = issue.msg;
    }
    return out;
  }
}

/**
 * A read refused with 429 that the load layer (use-load.ts) will send again at `retryAt` (ms since the
 * epoch): its message counts down to then, so a screen never shows old numbers without saying why.
 */
export class ThrottledError extends Error {
  readonly retryAt: number;
  constructor(retryAt: number, now = Date.now()) {
    super(`The server is throttling requests; retrying in ${Math.max(1, Math.ceil((retryAt - now) / 1000))} s.`);
    this.retryAt = retryAt;
  }
}

/** The message of a thrown value for a status line. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
