// The ETag of a row whose version is its updated_at (epoch ms), which PATCH, DELETE and the other
// writes send back in If-Match (shared/verbs/resources/if-match.ts).
import type { Context } from "hono";
import type { AppEnv } from "../deps.ts";

/** Sets the ETag of `shape` on the answer and returns `shape`. */
export function withVersion<T extends { updated_at: string }>(c: Context<AppEnv>, shape: T): T {
  c.header("ETag", `W/"${Date.parse(shape.updated_at)}"`);
  return shape;
}
