// How a badge is answered (docs/adr/0455): cacheable for a minute only (a state change must show soon),
// revalidated by an ETag of the SVG itself (a 304 when unchanged), never sniffed, and a CSP that lets the
// SVG run nothing when it is opened on its own.
import type { Context } from "hono";
import { bytesToHex, utf8Bytes } from "../../shared/auth/encoding.ts";
import type { AppEnv } from "../deps.ts";

export const BADGE_CSP = "default-src 'none'; sandbox";

export async function badgeResponse(c: Context<AppEnv>, svg: string): Promise<Response> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Bytes(svg)));
  const etag = `"${bytesToHex(digest).slice(0, 32)}"`;
  const headers = {
    "Content-Type": "image/svg+xml; charset=utf-8",
    "Cache-Control": "public, max-age=60",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": BADGE_CSP,
  };
  const tags = (c.req.header("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (tags.includes(etag) || tags.includes("*")) return c.body(null, 304, headers);
  return c.body(svg, 200, headers);
}
