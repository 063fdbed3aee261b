// A cve_feed_sources entry (docs/cve.md): an absolute file path or an http(s) URL, optionally ending in
// `#sha256=<64 hex digits>`, the SHA-256 of the bytes as stored or served (before any gunzip). A pinned
// feed whose bytes hash otherwise is refused whole. The suffix keeps the setting a list of strings
// (docs/adr/0310-cve-feed-sha256-pin.md); a URL's fragment is never sent, so the pin stays local.

export type FeedTransport = "file" | "https" | "http";

export interface FeedSource {
  /** What is read: the path, or the URL without the pin. */
  location: string;
  transport: FeedTransport;
  /** Lower-case hex, or null when not pinned. */
  sha256: string | null;
}

const PIN = /#sha256=([^#]*)$/i;
const HEX64 = /^[0-9a-f]{64}$/i;

/** Whether the source ends in a malformed pin (`#sha256=` not followed by exactly 64 hex digits). */
export function pinProblem(source: string): boolean {
  const pin = PIN.exec(source)?.[1];
  return pin !== undefined && !HEX64.test(pin);
}

export function parseFeedSource(source: string): FeedSource {
  const m = PIN.exec(source);
  const location = m ? source.slice(0, m.index) : source;
  const transport: FeedTransport = /^https:\/\//i.test(location) ? "https" : /^http:\/\//i.test(location) ? "http" : "file";
  return { location, transport, sha256: m && HEX64.test(m[1]!) ? m[1]!.toLowerCase() : null };
}
