// Refuses bodies over the limit with 413 in the error envelope, by Content-Length or while streaming.
// Multipart uploads have their own, larger ceiling; each upload route then applies its own cap.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../shared/errors.ts";
import type { AppEnv } from "../deps.ts";

function limiter(maxSize: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError("PAYLOAD_TOO_LARGE", `Request body is larger than the limit of ${maxSize} bytes.`);
    },
  });
}

/**
 * `larger`: paths (exact) with a limit of their own, such as the inventory import; `suffixes`: path
 * endings with a limit of their own (every list's CSV import, /import.csv).
 */
export function limitBody(
  maxBody: number,
  maxUpload: number,
  larger: Record<string, number> = {},
  suffixes: Record<string, number> = {},
): MiddlewareHandler<AppEnv> {
  const body = limiter(maxBody);
  const upload = limiter(maxUpload);
  const own = new Map(Object.entries(larger).map(([path, max]) => [path, limiter(max)]));
  const ends = Object.entries(suffixes).map(([suffix, max]) => [suffix, limiter(max)] as const);
  return (c, next) => {
    // GET and HEAD carry no body (fetch says so); asking for one would make Node's server adapter build
    // a full Request object on every read just to find that out.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const special = own.get(c.req.path) ?? ends.find(([suffix]) => c.req.path.endsWith(suffix))?.[1];
    if (special) return special(c, next);
    return /^multipart\/form-data/i.test(c.req.header("content-type") ?? "") ? upload(c, next) : body(c, next);
  };
}
