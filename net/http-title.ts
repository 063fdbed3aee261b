// The <title> of a web server's front page: GET / over HTTP or HTTPS (certificate not checked), reading
// at most maxBytes of the body, no redirects followed (a redirect's status is reported instead).
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { settleOnce } from "./settle.ts";

export interface HttpTitleOptions {
  tls: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes?: number;
}

export interface HttpTitle {
  status: number;
  title: string | null;
  server: string | null;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The text of the first <title> element, entities decoded, whitespace collapsed, at most 200 characters. */
export function parseTitle(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!m?.[1]) return null;
  const title = decodeEntities(m[1]).replace(/\s+/g, " ").trim().slice(0, 200);
  return title || null;
}

/** Null when no HTTP answer came in time. */
export function httpTitle(host: string, port: number, options: HttpTitleOptions): Promise<HttpTitle | null> {
  const maxBytes = options.maxBytes ?? 65536;
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve(null);
    const finish = settleOnce<HttpTitle | null>(resolve, {
      fallback: null,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      release: () => req.destroy(),
    });
    const hostHeader = port === (options.tls ? 443 : 80) ? host : `${host}:${port}`;
    const common = {
      host,
      port,
      path: "/",
      method: "GET",
      agent: false as const,
      headers: { Host: hostHeader, "User-Agent": "infra-discovery", Accept: "text/html" },
    };
    const onResponse = (res: IncomingMessage) => {
      const server = typeof res.headers.server === "string" ? res.headers.server.slice(0, 200) : null;
      const status = res.statusCode ?? 0;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
        if (body.length >= maxBytes || /<\/title>/i.test(body)) finish({ status, title: parseTitle(body.slice(0, maxBytes)), server });
      });
      res.on("end", () => finish({ status, title: parseTitle(body), server }));
      res.on("error", () => finish({ status, title: parseTitle(body), server }));
    };
    const req = options.tls ? httpsRequest({ ...common, rejectUnauthorized: false }, onResponse) : httpRequest(common, onResponse);
    req.on("error", () => finish(null));
    req.end();
  });
}
