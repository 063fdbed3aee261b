// The CLI's only way to the server: its public HTTP API with an API token (Authorization: Bearer).
// Every answer of 400 or more becomes a CliError whose message is one line: the status, the API's
// `detail`, and for a 422 the names of the fields it refused (docs/cli.md, "Errors").
import type { IncomingMessage } from "node:http";
import { CliError, EXIT, exitForStatus } from "./exit.ts";

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A body sent as is (a file being uploaded), with its content type. */
  raw?: { data: Uint8Array | string; type: string };
  headers?: Record<string, string>;
  /** Answers of these statuses are returned rather than thrown. */
  allow?: number[];
  signal?: AbortSignal;
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One line describing an error envelope: `detail` and, from a 422, every field with its message. */
export function describeError(status: number, body: unknown): string {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const code = typeof b.error_code === "string" ? b.error_code : `HTTP ${status}`;
  let detail = "";
  if (typeof b.detail === "string") detail = b.detail;
  else if (Array.isArray(b.detail)) detail = b.detail.map((d: { msg?: string }) => d?.msg ?? "").join("; ");
  const fields = b.fields && typeof b.fields === "object" ? Object.entries(b.fields as Record<string, unknown>) : [];
  if (Array.isArray(b.detail) && fields.length > 0) detail = "the request was refused, field by field:";
  const fieldText = fields.length > 0 ? ` [${fields.map(([k, v]) => `${k}: ${String(v)}`).join("; ")}]` : "";
  if (status === 412)
    detail +=
      " The object was changed by someone else since it was read (its version no longer matches If-Match); read it again and repeat the change.";
  return `${status} ${code}: ${detail || "(no detail)"}${fieldText}`.replace(/\s*\n\s*/g, " ");
}

/** For a response read as a stream: throws its error (one line, the exit code of its status) when it is one. */
export async function failIfRefused(res: Response): Promise<void> {
  if (res.status < 400) return;
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text is the detail.
  }
  throw new CliError(describeError(res.status, body), exitForStatus(res.status), res.status, body);
}

export class ApiClient {
  readonly baseUrl: string;
  readonly #token: string;
  constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl;
    this.#token = token;
  }

  url(path: string, query?: RequestOptions["query"]): string {
    const u = new URL(path.startsWith("/") ? path : `/api/v1/${path}`, this.baseUrl);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== "") u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** The raw fetch, with the token; network failures become exit code 5. */
  async fetch(path: string, init: RequestInit & { query?: RequestOptions["query"] } = {}): Promise<Response> {
    const { query, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (this.#token) headers.set("authorization", `Bearer ${this.#token}`);
    headers.set("user-agent", "lab-cli");
    try {
      return await fetch(this.url(path, query), { ...rest, headers });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(`cannot reach ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (e as Error).message}`, EXIT.network);
    }
  }

  /**
   * A read refused by the rate limit is repeated once the server's Retry-After has passed; a write never
   * is, and neither is a wait over a minute. Answers whether it waited (the caller asks again).
   */
  async #waitedForLimit(method: string, status: number, retryAfter: string | null | undefined, waits: number): Promise<boolean> {
    if (status !== 429 || method !== "GET" || waits >= 5) return false;
    const after = Number(retryAfter);
    if (!Number.isFinite(after) || after > 60) return false;
    process.stderr.write(`lab: rate limited by the server; waiting ${after} s (Retry-After)\n`);
    await new Promise((r) => setTimeout(r, Math.max(1, after) * 1000));
    return true;
  }

  async #fetchRetrying(method: string, path: string, init: RequestInit & { query?: RequestOptions["query"] }): Promise<Response> {
    for (let waits = 0; ; waits++) {
      const res = await this.fetch(path, { ...init, method });
      if (res.status !== 429 || !(await this.#waitedForLimit(method, res.status, res.headers.get("retry-after"), waits))) return res;
      await res.body?.cancel();
    }
  }

  /**
   * A GET whose answer is read as it arrives (a list as NDJSON), as text chunks; a refusal is thrown as by
   * request(). Over node:http, not fetch: loading fetch's HTTP client costs ~45 ms of CPU, which a
   * `lab list` would pay before its first line (docs/adr/0503).
   */
  async stream(path: string, accept: string, query?: RequestOptions["query"]): Promise<IncomingMessage> {
    const url = new URL(this.url(path, query));
    const headers: Record<string, string> = { accept, "user-agent": "lab-cli" };
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    for (let waits = 0; ; waits++) {
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const { request } = process.getBuiltinModule(url.protocol === "https:" ? "node:https" : "node:http") as typeof import("node:http");
        request(url, { headers }, resolve)
          .on("error", (e: NodeJS.ErrnoException) =>
            reject(new CliError(`cannot reach ${this.baseUrl}: ${e.code ?? e.message}`, EXIT.network)),
          )
          .end();
      });
      const status = res.statusCode ?? 0;
      if (status < 400) {
        res.setEncoding("utf8");
        return res;
      }
      const retryAfter = res.headers["retry-after"];
      if (await this.#waitedForLimit("GET", status, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, waits)) {
        res.destroy();
        continue;
      }
      let text = "";
      for await (const chunk of res) text += String(chunk);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: the text is the detail.
      }
      throw new CliError(describeError(status, body), exitForStatus(status), status, body);
    }
  }

  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
    let body: BodyInit | undefined;
    if (opts.raw) {
      headers["content-type"] = opts.raw.type;
      body = opts.raw.data as BodyInit;
    } else if (opts.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.body);
    }
    const res = await this.#fetchRetrying(method, path, {
      headers,
      ...(body === undefined ? {} : { body }),
      ...(opts.query ? { query: opts.query } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get("content-type") ?? "").includes("json") && text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (res.status >= 400 && !opts.allow?.includes(res.status))
      throw new CliError(describeError(res.status, parsed), exitForStatus(res.status), res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = unknown>(path: string, query?: RequestOptions["query"]): Promise<Answer<T>> {
    return this.request<T>("GET", path, query ? { query } : {});
  }
}
