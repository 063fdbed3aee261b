// A public status page answer that proxies and browsers may keep briefly: an ETag of the body's bytes,
// `Cache-Control: public` with a small max-age (a state change shows within it), and 304 on If-None-Match.
import type { Context } from "hono";
import { bytesToBase64Url, utf8Bytes } from "../../../shared/auth/encoding.ts";
import type { AppEnv } from "../../deps.ts";

export const STATUS_PAGE_MAX_AGE_S = 15;

export async function cachedAnswer(
  c: Context<AppEnv>,
  body: string,
  contentType: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  const bytes = utf8Bytes(body);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const etag = `"${bytesToBase64Url(digest).slice(0, 27)}"`;
  const headers = { "Content-Type": contentType, ETag: etag, "Cache-Control": `public, max-age=${STATUS_PAGE_MAX_AGE_S}`, ...extra };
  const tags = (c.req.header("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (tags.includes(etag) || tags.includes("*")) return c.body(null, 304, headers);
  return c.body(bytes, 200, headers);
}
