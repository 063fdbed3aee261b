// websocket: the upgrade of config.url (ws:// or wss://; default ws://<host>/) with the config's headers
// and basic or bearer auth (as http's), then, when config.send is set, that text message; when
// config.expected_reply is set, a message containing it (a substring, ADR 0436) must arrive within the
// timeout (other messages, a greeting say, are passed over). Then the check closes with 1000 and waits
// for the server's close. The upgrade time is the latency. Redirects are not followed; the url's host is
// judged by the monitor policy before (reach.ts) and on the address it resolves to (the lookup).
import WebSocket from "ws";
import { requestHeaders } from "./http.ts";
import {
  type Check,
  type CheckOutcome,
  CheckConfigError,
  ConfigReader,
  elapsed,
  failed,
  invalidConfig,
  reasonOf,
  sameHost,
  succeeded,
} from "./result.ts";

/** Enough for a reply to hold what is expected; a larger message fails the check. */
const MAX_MESSAGE_BYTES = 1 << 20;

/** A message as the result shows it: its text, cut short. */
const shown = (text: string) => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);

export const websocketCheck: Check = (spec, signal) => {
  let url: URL;
  let headers: Record<string, string>;
  let message: string | null;
  let expected: string | null;
  let verifyTls: boolean;
  try {
    const config = new ConfigReader(spec.config);
    const host = spec.host.includes(":") && !spec.host.startsWith("[") ? `[${spec.host}]` : spec.host;
    try {
      url = new URL(config.string("url", `ws://${host}/`));
    } catch {
      throw new CheckConfigError("config.url is not a URL");
    }
    if (url.protocol !== "ws:" && url.protocol !== "wss:") throw new CheckConfigError("config.url must be ws or wss");
    if (spec.hostOnly && !sameHost(url.hostname, spec.host))
      throw new CheckConfigError(`config.url names ${url.hostname}, not the assigned host ${spec.host}`);
    headers = requestHeaders(config);
    message = config.string("send", null);
    expected = config.string("expected_reply", null);
    verifyTls = config.boolean("verify_tls", true);
  } catch (e) {
    return Promise.resolve(invalidConfig(e));
  }
  if (signal.aborted) return Promise.resolve(failed("upgrade failed: timeout"));
  return new Promise<CheckOutcome>((resolve) => {
    const start = performance.now();
    let upgradeMs: number | null = null;
    let matched: string | null = null;
    let passedOver = 0;
    let last: string | null = null;
    const ws = new WebSocket(url, {
      headers,
      rejectUnauthorized: verifyTls,
      followRedirects: false,
      maxPayload: MAX_MESSAGE_BYTES,
      perMessageDeflate: false,
      ...(spec.reach ? { lookup: spec.reach.lookup } : {}),
    });
    let done = false;
    const finish = (outcome: CheckOutcome) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      ws.terminate();
      resolve(outcome);
    };
    const up = (closing: string) => {
      const reply = matched !== null ? `; reply ${shown(matched)}` : message !== null ? "; message sent" : "";
      finish(succeeded(`upgraded${reply}; ${closing}`, upgradeMs));
    };
    const onAbort = () => {
      if (upgradeMs === null) return finish(failed("upgrade failed: timeout"));
      // The check had what it needed; only the server's answer to the close is missing.
      if (ws.readyState === WebSocket.CLOSING) return up("the server did not answer the close");
      const seen = passedOver > 0 ? ` (${passedOver} other messages, the last ${shown(last ?? "")})` : "";
      finish(failed(`no reply containing ${shown(expected ?? "")} before the timeout${seen}`, upgradeMs));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    ws.on("unexpected-response", (_req, res) => {
      finish(failed(`upgrade refused: HTTP ${res.statusCode}${res.statusMessage ? ` ${res.statusMessage}` : ""}`, elapsed(start)));
    });
    ws.on("error", (e) => {
      finish(failed(upgradeMs === null ? `upgrade failed: ${reasonOf(e)}` : `connection failed: ${reasonOf(e)}`, upgradeMs));
    });
    ws.on("open", () => {
      upgradeMs = elapsed(start);
      if (message !== null) ws.send(message);
      if (expected === null) ws.close(1000);
    });
    ws.on("message", (data, isBinary) => {
      if (expected === null || matched !== null) return;
      // binaryType is "nodebuffer": one Buffer per message. A binary one is compared byte for byte (latin1).
      const text = (data as Buffer).toString(isBinary ? "latin1" : "utf8");
      if (text.includes(expected)) {
        matched = text;
        ws.close(1000);
      } else {
        passedOver++;
        last = text;
      }
    });
    ws.on("close", (code, reason) => {
      if (upgradeMs !== null && (expected === null || matched !== null)) return up(`closed ${code}`);
      const why = `${code}${reason.length > 0 ? ` ${shown(reason.toString())}` : ""}`;
      finish(failed(`the server closed the connection (${why}) before a reply containing ${shown(expected ?? "")}`, upgradeMs));
    });
  });
};
