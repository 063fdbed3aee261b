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
  /** For a 429: the seconds to wait before asking again (0 when the answer did not say). */
  readonly retryAfterS: number;

  constructor(status: number, body: ErrorBody | undefined) {
    super(ApiProblem.sentence(status, body));
    this.status = status;
    this.code = body?.error_code ?? `HTTP_${status}`;
    this.fields = { ...ApiProblem.issueFields(body), ...(body?.fields ?? {}) };
    this.retryAfterS = body?.retry_after ?? 0;
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

/** The message of a thrown value for a status line. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
