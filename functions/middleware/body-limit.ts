// Refuses bodies over MAX_BODY_BYTES with 413 in the error envelope, by Content-Length or while streaming.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../shared/errors.ts";
import type { AppEnv } from "../deps.ts";

export function limitBody(maxSize: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, "PAYLOAD_TOO_LARGE", `Request body is larger than the limit of ${maxSize} bytes.`);
    },
  });
}
