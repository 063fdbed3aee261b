// The public status page's Content-Security-Policy: nothing loads but its own stylesheet (by hash), its
// logo (by the logo's origin, or this origin for a path) and, where live updates are served, the live
// script (by hash) and its event stream and page fetches ('self'); no form or base. Only the console's
// preview may frame it (`framedBy: "'self'"`); the public page may not be framed at all.
import { bytesToBase64, utf8Bytes } from "../../shared/auth/encoding.ts";

export async function statusPageCsp(
  style: string,
  logoUrl: string | null,
  { framedBy = "'none'", scriptHash }: { framedBy?: string; scriptHash?: string | undefined } = {},
): Promise<string> {
  const hash = bytesToBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Bytes(style))));
  let img = "'none'";
  if (logoUrl) img = logoUrl.startsWith("/") ? "'self'" : (URL.parse(logoUrl)?.origin ?? "'none'");
  return [
    "default-src 'none'",
    `style-src 'sha256-${hash}'`,
    `img-src ${img}`,
    ...(scriptHash ? [`script-src '${scriptHash}'`, "connect-src 'self'"] : []),
    `frame-ancestors ${framedBy}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}
