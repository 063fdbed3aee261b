// Fetches an offered build from the server the agent already talks to (GET /api/v1/agents/binary/
// {version}/{os}/{arch}), into a file that is not executable, bounded in size and time. Redirects are
// refused: the bytes come from that server or not at all. What they are is checked afterwards
// (agent/release.ts verifyBuild); this only brings them.
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { BuildRef } from "../../shared/agents/release.ts";

/** The largest build accepted (the builds are about 100 MB). */
export const MAX_BUILD_BYTES = 256 * 1024 * 1024;
export const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/** How the bytes are asked for: `plainFetch`, or over the agent's pinned TLS connection (pinnedFetch). */
export type Fetcher = (url: URL, signal: AbortSignal) => Promise<Response>;

/** Redirects come back as they are (and are refused below), never followed. */
export const plainFetch: Fetcher = (url, signal) => fetch(url, { signal, redirect: "manual" });

/** Socket idle limit of a pinned download (the whole download is bounded by DOWNLOAD_TIMEOUT_MS). */
const PINNED_IDLE_MS = 60_000;

/** https through the agent's TLS pins (agent/tls-pin.ts, which follows no redirect); http as plainFetch. */
export function pinnedFetch(pins: { fetch(url: URL, timeoutMs: number): Promise<Response> }): Fetcher {
  return (url, signal) => (url.protocol === "https:" ? pins.fetch(url, PINNED_IDLE_MS) : plainFetch(url, signal));
}

/** A refusal of the answer itself (status, size): reported as it is. */
class Refused extends Error {}

export function buildUrl(serverUrl: string, b: BuildRef): URL {
  const segments = [b.version, b.os, b.arch].map(encodeURIComponent).join("/");
  return new URL(`/api/v1/agents/binary/${segments}`, serverUrl);
}

/** Writes build `b` to `dest` (mode 0600); on any failure `dest` is removed and the error says why. */
export async function downloadBuild(
  serverUrl: string,
  b: BuildRef,
  dest: string,
  limits: { maxBytes?: number; timeoutMs?: number; fetch?: Fetcher } = {},
): Promise<number> {
  const url = buildUrl(serverUrl, b);
  const maxBytes = limits.maxBytes ?? MAX_BUILD_BYTES;
  const timeoutMs = limits.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let received = 0;
  try {
    const res = await (limits.fetch ?? plainFetch)(url, signal);
    if (res.status >= 300 && res.status < 400) throw new Refused(`GET ${url} answered ${res.status}: redirects are refused`);
    if (!res.ok || !res.body) throw new Refused(`GET ${url} answered ${res.status}`);
    const declared = Number(res.headers.get("content-length") ?? Number.NaN);
    if (declared > maxBytes) throw new Refused(`the build is ${declared} bytes, more than the ${maxBytes} accepted`);
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        done(received > maxBytes ? new Refused(`the build is more than the ${maxBytes} bytes accepted`) : null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as never), limit, createWriteStream(dest, { mode: 0o600, flags: "w" }), { signal });
    return received;
  } catch (e) {
    await rm(dest, { force: true });
    const err = e as Error;
    if (err instanceof Refused) throw err;
    if (signal.aborted) throw new Error(`downloading ${url} took longer than ${timeoutMs / 1000} s`);
    throw new Error(`cannot download ${url}: ${(err.cause as Error | undefined)?.message ?? err.message}`);
  }
}
