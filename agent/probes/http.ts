// http(s): one request to config.url (else http://{host}/) with the monitor's method, headers, body and
// auth; up when the status is in accepted_statuses (default 200-299) and the keyword rule holds.
// node:http rather than fetch: verify_tls=false must be possible per request. The URL's host must be
// the assigned host: the server checked that host against the agent's scope, not whatever a URL names.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { type Check, down, elapsed, option, ProbeConfigError } from "./check.ts";

const BODY_LIMIT = 1 << 20;
const MAX_REDIRECTS = 5;

function statusAccepted(status: number, accepted: string[]): boolean {
  return accepted.some((rule) => {
    const m = /^(\d{3})(?:-(\d{3}))?$/.exec(rule.trim());
    if (!m) throw new ProbeConfigError(`accepted_statuses entry ${JSON.stringify(rule)} is not NNN or NNN-NNN`);
    return status >= Number(m[1]) && status <= Number(m[2] ?? m[1]);
  });
}

const sameHost = (url: URL, host: string) => url.hostname.replace(/^\[|\]$/g, "").toLowerCase() === host.replace(/^\[|\]$/g, "").toLowerCase();

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

function send(url: URL, init: { method: string; headers: Record<string, string>; body: string | null; verifyTls: boolean }, signal: AbortSignal, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = request(url, { method: init.method, headers: init.headers, signal, timeout: timeoutMs, rejectUnauthorized: init.verifyTls }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        // Enough of the body for a keyword; the rest is not read.
        if (size < BODY_LIMIT) chunks.push(c);
        size += c.length;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(init.body ?? undefined);
  });
}

export const httpCheck: Check = async (host, config, signal, timeoutMs) => {
  let url: URL;
  try {
    url = new URL(option(config, "url", "string", `http://${host.includes(":") ? `[${host}]` : host}/`));
  } catch {
    throw new ProbeConfigError("config.url is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ProbeConfigError("config.url must be http or https");
  if (!sameHost(url, host)) throw new ProbeConfigError(`config.url names ${url.hostname}, not the assigned host ${host}`);
  const headers = { ...option<Record<string, string>>(config, "headers", "object", {}) };
  const auth = option<string>(config, "auth_type", "string", "none");
  if (auth === "basic") headers.authorization = `Basic ${Buffer.from(`${option(config, "username", "string", "")}:${option(config, "password", "string", "")}`).toString("base64")}`;
  if (auth === "bearer") headers.authorization = `Bearer ${option(config, "token", "string", "")}`;
  const init = {
    method: option(config, "method", "string", "GET").toUpperCase(),
    headers,
    body: option<string | null>(config, "body", "string", null),
    verifyTls: option(config, "verify_tls", "boolean", true),
  };
  const follow = option(config, "follow_redirects", "boolean", true);
  const accepted = option<string[]>(config, "accepted_statuses", "object", ["200-299"]);
  const keyword = option<string | null>(config, "keyword", "string", null);
  const invert = option(config, "keyword_invert", "boolean", false);

  const start = performance.now();
  let answer: Answer;
  try {
    answer = await send(url, init, signal, timeoutMs);
    for (let i = 0; follow && i < MAX_REDIRECTS && answer.status >= 300 && answer.status < 400 && answer.location; i++) {
      url = new URL(answer.location, url);
      // A redirect to another host leaves the scope the server checked: not followed.
      if (!sameHost(url, host)) break;
      answer = await send(url, { ...init, method: init.method === "HEAD" ? "HEAD" : "GET", body: null }, signal, timeoutMs);
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return down(err.name === "AbortError" ? "aborted" : (err.code ?? err.message), elapsed(start));
  }
  const latency = elapsed(start);
  const statusOk = statusAccepted(answer.status, accepted);
  const keywordOk = keyword === null || answer.body.includes(keyword) !== invert;
  const up = statusOk && keywordOk;
  const reason = !statusOk ? `status ${answer.status} not accepted` : !keywordOk ? `keyword ${invert ? "present" : "absent"}` : null;
  return {
    up,
    samples: [
      { metric: "avail", value: up ? 1 : 0, error_reason: reason },
      { metric: "latency_ms", value: latency, error_reason: null },
      { metric: "http_status", value: answer.status, error_reason: null },
    ],
    msg: reason ?? `HTTP ${answer.status}`,
    details: { status: answer.status, url: url.toString() },
  };
};
