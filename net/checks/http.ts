// http(s): one request with the monitor's method, headers, body and basic or bearer auth, redirects
// followed by hand (each hop counted against max_redirects), up when the final status is accepted
// (default 200-299) and the keyword / JSON-path rules hold. node:http rather than fetch: ignoring TLS
// per request and reading the peer certificate (cert_days_remaining) need the socket. No connection
// pool: every check opens its own connection, as a user's browser would on its first visit.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import {
  type Check,
  type CheckSample,
  CheckConfigError,
  ConfigReader,
  elapsed,
  failed,
  invalidConfig,
  reasonOf,
  succeeded,
  sameHost,
} from "./result.ts";
import { expiryProblem, socketCertDaysLeft } from "./cert.ts";
import { jsonPathValue } from "./json-path.ts";
import type { Reach } from "./reach.ts";
import { checkOutboundHost } from "../../shared/domain/net/outbound-policy.ts";
import { HTTP_METHODS } from "../../shared/domain/monitors/check-types.ts";

/** Enough of a body for a keyword or a JSON value; the rest is not read. */
const BODY_LIMIT = 1 << 20;
const DEFAULT_MAX_REDIRECTS = 20;
const METHODS = new Set<string>(HTTP_METHODS);

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
  /** Days the https peer's certificate has left (cert.ts), null over plain http. */
  certDays: number | null;
}

interface Init {
  method: string;
  headers: Record<string, string>;
  body: string | null;
  verifyTls: boolean;
}

/** "200-299" or "301": true when `status` is in one of them. */
export function statusAccepted(status: number, accepted: string[]): boolean {
  return accepted.some((rule) => {
    const m = /^\s*(\d{3})\s*(?:-\s*(\d{3})\s*)?$/.exec(rule);
    if (!m) throw new CheckConfigError(`accepted_statuses entry ${JSON.stringify(rule)} is not NNN or NNN-NNN`);
    return status >= Number(m[1]) && status <= Number(m[2] ?? m[1]);
  });
}

/** Thrown when a hop's host is refused by the monitor policy (a redirect to a metadata address, say). */
class Refused extends Error {}

function send(url: URL, init: Init, signal: AbortSignal, reach: Reach | undefined): Promise<Answer> {
  // Every hop, redirects included: an IP literal never reaches the lookup, so it is judged here.
  const refused = reach ? checkOutboundHost(url.hostname, reach.policy) : null;
  if (refused !== null) return Promise.reject(new Refused(`refused by the monitor policy: ${refused}`));
  return new Promise((resolve, reject) => {
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    const lookup = reach ? { lookup: reach.lookup } : {};
    const req = request(
      url,
      { method: init.method, headers: init.headers, signal, agent: false, rejectUnauthorized: init.verifyTls, ...lookup },
      (res) => {
        const certDays = socketCertDaysLeft(res.socket);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size < BODY_LIMIT) chunks.push(c);
          size += c.length;
          if (size >= BODY_LIMIT) res.destroy();
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            body: Buffer.concat(chunks).toString("utf8").slice(0, BODY_LIMIT),
            certDays,
          });
        res.on("end", done);
        res.on("close", done);
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body ?? undefined);
  });
}

/** The config's headers with its basic or bearer Authorization (http and websocket: http-auth-fields.ts). */
export function requestHeaders(config: ConfigReader): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": "infra-control-plane-monitor/1", ...config.record("headers") };
  const auth = config.string("auth_type", "none");
  if (auth === "basic")
    headers.authorization = `Basic ${Buffer.from(`${config.string("username", "")}:${config.string("password", "")}`).toString("base64")}`;
  else if (auth === "bearer") headers.authorization = `Bearer ${config.string("token", "")}`;
  else if (auth !== "none") throw new CheckConfigError(`auth_type ${auth} is not none, basic or bearer`);
  return headers;
}

function initOf(config: ConfigReader): Init {
  const headers = requestHeaders(config);
  const method = config.string("method", "GET").toUpperCase();
  if (!METHODS.has(method)) throw new CheckConfigError(`method ${method} is not supported`);
  return {
    method,
    headers,
    body: config.string("body", null),
    verifyTls: config.boolean("verify_tls", !config.boolean("ignore_tls", false)),
  };
}

export const httpCheck: Check = async (spec, signal) => {
  const start = performance.now();
  try {
    const config = new ConfigReader(spec.config);
    const host = spec.host.includes(":") && !spec.host.startsWith("[") ? `[${spec.host}]` : spec.host;
    let url: URL;
    try {
      url = new URL(config.string("url", `http://${host}/`));
    } catch {
      throw new CheckConfigError("config.url is not a URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new CheckConfigError("config.url must be http or https");
    if (spec.hostOnly && !sameHost(url.hostname, spec.host))
      throw new CheckConfigError(`config.url names ${url.hostname}, not the assigned host ${spec.host}`);
    const init = initOf(config);
    const maxRedirects = config.boolean("follow_redirects", true) ? config.number("max_redirects", DEFAULT_MAX_REDIRECTS) : 0;
    const accepted = config.strings("accepted_statuses", ["200-299"]);
    const keyword = config.string("keyword", null);
    const invert = config.boolean("keyword_invert", false);
    const jsonPath = config.string("json_path", null);
    const expected = config.string("expected_value", null);
    const certMinDays = config.number("cert_expiry_days", null);

    let answer = await send(url, init, signal, spec.reach);
    let hops = 0;
    while (answer.status >= 300 && answer.status < 400 && answer.location && config.boolean("follow_redirects", true)) {
      if (hops >= maxRedirects)
        return failed(`too many redirects (more than ${maxRedirects})`, elapsed(start), [{ metric: "http_status", value: answer.status }]);
      hops++;
      const next = new URL(answer.location, url);
      // A redirect to another host leaves the scope the agent's host was checked against: not followed.
      if (spec.hostOnly && !sameHost(next.hostname, spec.host)) break;
      url = next;
      if (url.protocol !== "http:" && url.protocol !== "https:") return failed(`redirect to a ${url.protocol} URL`, elapsed(start));
      // 303 (and, as browsers do, 301/302 of a POST) continue as GET without a body.
      const asGet = answer.status === 303 || ((answer.status === 301 || answer.status === 302) && init.method === "POST");
      answer = await send(url, asGet ? { ...init, method: "GET", body: null } : init, signal, spec.reach);
    }
    const latency = elapsed(start);
    const extra: CheckSample[] = [{ metric: "http_status", value: answer.status }];
    const certDays = url.protocol === "https:" ? answer.certDays : null;
    if (certDays !== null) extra.push({ metric: "cert_days_remaining", value: certDays });

    if (!statusAccepted(answer.status, accepted))
      return failed(`status ${answer.status} not accepted (${accepted.join(", ")})`, latency, extra);
    if (keyword !== null && answer.body.includes(keyword) === invert)
      return failed(invert ? `keyword ${JSON.stringify(keyword)} present` : `keyword ${JSON.stringify(keyword)} not found`, latency, extra);
    if (jsonPath !== null) {
      const found = jsonPathValue(answer.body, jsonPath);
      if (!found.ok) return failed(found.reason, latency, extra);
      if (expected !== null && found.text !== expected)
        return failed(`${jsonPath} is ${JSON.stringify(found.text)}, expected ${JSON.stringify(expected)}`, latency, extra);
    }
    const expiry = certMinDays !== null && certDays !== null ? expiryProblem(certDays, certMinDays) : null;
    if (expiry !== null) return failed(expiry, latency, extra);
    return succeeded(`HTTP ${answer.status}${certDays !== null ? `, certificate valid ${certDays} more days` : ""}`, latency, extra);
  } catch (e) {
    if (e instanceof CheckConfigError) return invalidConfig(e);
    if (e instanceof Refused) return failed(e.message);
    return failed(`request failed: ${reasonOf(e)}`, signal.aborted ? null : elapsed(start));
  }
};
