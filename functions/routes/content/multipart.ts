// The uploads' request shape: multipart/form-data with the file in a field named `file`, plus any text
// fields a route names. Anything else is a 422 saying how to send it; the type and size checks belong
// to the verbs. Text fields are held to the same rule as JSON text (shared/schemas/unsafe-text.ts).
import type { Context } from "hono";
import { ApiError } from "../../../shared/errors.ts";
import { unsafeTextIssues } from "../../../shared/schemas/unsafe-text.ts";
import type { AppEnv } from "../../deps.ts";

export const MULTIPART_DESCRIPTION =
  "multipart/form-data with the file in the field `file`; the type is told by the file's content, never its name.";

export interface Upload<F extends string> {
  bytes: Uint8Array;
  /** The name the client gave the file, when it gave one. */
  fileName: string | undefined;
  /** The named text fields that were sent and not empty. */
  fields: Partial<Record<F, string>>;
}

/** Reads an upload: `what` names the file in the 422s ("the image", "the icon"). */
export async function readUpload<F extends string = never>(
  c: Context<AppEnv>,
  what = "the file",
  textFields: readonly F[] = [],
): Promise<Upload<F>> {
  const issue = (msg: string, loc = ["body"]) => ApiError.validation([{ loc, msg, type: "upload" }]);
  if (!/^multipart\/form-data\s*;/i.test(c.req.header("content-type") ?? ""))
    throw issue(`Send ${what} as multipart/form-data in a field named file.`);
  const form = await c.req.formData().catch(() => {
    throw issue("The multipart/form-data body could not be read.");
  });
  const file = form.get("file");
  if (!(file instanceof Blob)) throw issue("A file field named file is required.", ["body", "file"]);
  const fileName = file instanceof File && file.name !== "" ? file.name : undefined;
  const fields: Partial<Record<F, string>> = {};
  for (const name of textFields) {
    const value = form.get(name);
    if (typeof value === "string" && value !== "") fields[name] = value;
  }
  const unsafe = unsafeTextIssues("body", { ...fields, ...(fileName ? { file: fileName } : {}) });
  if (unsafe.length > 0) throw ApiError.validation(unsafe);
  return { bytes: new Uint8Array(await file.arrayBuffer()), fileName, fields };
}

/** The bytes of the `file` field, for uploads that take nothing else. */
export async function fileField(c: Context<AppEnv>, what?: string): Promise<Uint8Array> {
  return (await readUpload(c, what)).bytes;
}
