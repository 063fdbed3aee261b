// The uploads' request shape: multipart/form-data with the file in a field named `file`. Anything else
// is a 422 saying how to send it; the type and size checks belong to the verbs.
import type { Context } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import type { AppEnv } from "../../deps.ts";

export const MULTIPART_DESCRIPTION = "multipart/form-data with the file in the field `file`; the type is told by the file's content, never its name.";

export async function fileField(c: Context<AppEnv>): Promise<Uint8Array> {
  const issue = (msg: string, loc = ["body"]) => ApiError.validation([{ loc, msg, type: "upload" }]);
  if (!/^multipart\/form-data\s*;/i.test(c.req.header("content-type") ?? "")) throw issue("Send multipart/form-data with the file in a field named file.");
  const form = await c.req.formData().catch(() => {
    throw issue("The multipart/form-data body could not be read.");
  });
  const file = form.get("file");
  if (!(file instanceof Blob)) throw issue("A file field named file is required.", ["body", "file"]);
  return new Uint8Array(await file.arrayBuffer());
}
