// Banner grab: connect, take what the server says first within a short window (SSH, SMTP, FTP, Redis
// errors...). A silent server gets one minimal HTTP request (HEAD /), as most silent TCP services on a
// homelab are web servers; its status line and Server header are the banner then.
import { connectSocket } from "./tcp-connect.ts";

export interface BannerOptions {
  timeoutMs: number;
  /** How long to wait for each answer (the greeting, then the HTTP answer). */
  windowMs?: number;
  signal?: AbortSignal;
  /** Send HEAD / when the server stays silent (default true). */
  httpProbe?: boolean;
  maxBytes?: number;
}

export interface Banner {
  /** The first line of the answer, printable characters only, at most 200; null when the server said nothing. */
  banner: string | null;
  /** The answer was an HTTP response (to the probe or unprompted). */
  http: boolean;
  /** The Server header of an HTTP answer. */
  server: string | null;
}

const PRINTABLE = /[^\x20-\x7e]+/g;

// biome-ignore lint/suspicious/noControlCharactersInRegex: a TLS record header is these control bytes
const TLS_RECORD = /^[\x15\x16]\x03/;

export function bannerOf(raw: string): Banner {
  // A TLS alert or handshake (a TLS server's answer to the HTTP probe) is no banner: the TLS grab reads it.
  if (TLS_RECORD.test(raw)) return { banner: null, http: false, server: null };
  const lines = raw.split(/\r?\n/);
  const first = (lines.find((l) => l.trim() !== "") ?? "").replace(PRINTABLE, " ").replace(/ +/g, " ").trim().slice(0, 200);
  const http = /^HTTP\/\d/.test(first);
  const serverLine = http ? lines.find((l) => /^server:/i.test(l)) : undefined;
  const server = serverLine
    ? serverLine
        .slice(serverLine.indexOf(":") + 1)
        .replace(PRINTABLE, " ")
        .trim()
        .slice(0, 200) || null
    : null;
  return { banner: first || null, http, server };
}

/** Null when the port could not be connected to at all. */
export async function grabBanner(host: string, port: number, options: BannerOptions): Promise<Banner | null> {
  const windowMs = options.windowMs ?? 500;
  const maxBytes = options.maxBytes ?? 2048;
  let socket;
  try {
    socket = await connectSocket(host, port, { timeoutMs: options.timeoutMs, signal: options.signal });
  } catch {
    return null;
  }
  const open = socket;
  return new Promise((resolve) => {
    let data = "";
    let probed = false;
    let timer: NodeJS.Timeout;
    const finish = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", finish);
      open.destroy();
      resolve(bannerOf(data));
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(onQuiet, windowMs);
    };
    const onQuiet = () => {
      if (data || probed || options.httpProbe === false || options.signal?.aborted) return finish();
      probed = true;
      open.write(`HEAD / HTTP/1.0\r\nHost: ${host}\r\nUser-Agent: infra-discovery\r\n\r\n`);
      arm();
    };
    options.signal?.addEventListener("abort", finish, { once: true });
    open.setEncoding("latin1");
    open.on("data", (chunk: string) => {
      data += chunk;
      // One greeting line (or the HTTP headers) is all a banner needs.
      if (data.length >= maxBytes || (!probed && data.includes("\n")) || (probed && /\r?\n\r?\n/.test(data))) finish();
    });
    open.on("end", finish);
    open.on("close", finish);
    arm();
  });
}

/** A service name from a banner's first line, when it says plainly what it is. */
export function serviceFromBanner(b: Banner): string | null {
  if (b.http) return "http";
  const line = b.banner ?? "";
  if (/^SSH-/.test(line)) return "ssh";
  if (/^220[ -].*\b(E?SMTP|Postfix|Exim|Sendmail)\b/i.test(line)) return "smtp";
  if (/^220[ -].*\bFTP\b/i.test(line)) return "ftp";
  if (/^\* OK.*\bIMAP/i.test(line)) return "imap";
  if (/^\+OK/.test(line)) return "pop3";
  if (/^-(ERR|NOAUTH)\b/.test(line)) return "redis";
  return null;
}
