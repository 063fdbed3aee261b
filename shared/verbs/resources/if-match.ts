// The If-Match header of a write, as the version the client last read (the engine's ETag is W/"<version>").
import { ApiError } from "../../errors.ts";

/** `"3"`, `W/"3"` -> 3; anything else is a 412 (it can never match). */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const m = /^(?:W\/)?"?(\d+)"?$/.exec(header.trim());
  if (!m) throw new ApiError("PRECONDITION_FAILED", "If-Match must be the ETag of the current version.");
  return Number(m[1]);
}
