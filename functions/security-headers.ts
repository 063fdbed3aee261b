// Headers every answer carries, and the documentation pages' own. One place, so the Node server, the
// worker and the edge's static assets (scripts/edge-web-assets.ts) say the same thing.
import { bytesToBase64, utf8Bytes } from "../shared/auth/encoding.ts";

/** A year: long enough to matter, the value the HSTS preload list and scanners expect at least. */
export const HSTS = "max-age=31536000";

/**
 * Strict-Transport-Security when the installation says it is reached over https (PUBLIC_URL); else
 * nothing: a browser ignores it over http, and one sent by a server that is not https-only would lock
 * its users out of it for a year.
 */
export function hstsFor(publicUrl: string | undefined): string | undefined {
  return publicUrl && /^https:\/\//i.test(publicUrl.trim()) ? HSTS : undefined;
}

// The documentation pages (Scalar, ReDoc): their scripts come from this server (/api/docs/assets) and
// the inline ones are allowed by hash; the OpenAPI document is fetched from this origin; ReDoc starts a
// worker from a blob and both draw with inline styles and data: images.
const DOCS_CSP = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
];

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The CSP of a documentation page: script-src this origin plus the hash of each inline script it has. */
export async function docsPageCsp(html: string): Promise<string> {
  const hashes: string[] = [];
  for (const [, body] of html.matchAll(INLINE_SCRIPT)) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Bytes(body!)));
    hashes.push(`'sha256-${bytesToBase64(digest)}'`);
  }
  return [DOCS_CSP[0], ["script-src 'self'", ...hashes].join(" "), ...DOCS_CSP.slice(1)].join("; ");
}
