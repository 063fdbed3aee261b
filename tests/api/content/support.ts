// Fixtures the content tests share: image bytes told by their first bytes, and a multipart upload.
import type { Actors } from "../../helpers/actors.ts";

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
export const GIF = new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;");
export const ICO = new Uint8Array([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 4, 0, 0, 0, 22, 0, 0, 0]);
export const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/** `bytes` padded to `size` (the signature stays first). */
export function sized(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(bytes);
  return out;
}

let peer = 0;

/** POSTs `bytes` as multipart/form-data in `field` (default `file`), claiming the type `type`. */
export function upload(
  a: Actors,
  path: string,
  token: string | undefined,
  bytes: Uint8Array,
  field = "file",
  type = "image/png",
): Promise<Response> {
  const form = new FormData();
  form.append(field, new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), "upload.bin");
  const headers: Record<string, string> = { "x-test-peer": `10.77.${Math.floor(++peer / 250) % 250}.${peer % 250}` };
  if (token) headers.authorization = `Bearer ${token}`;
  return Promise.resolve(a.t.app.request(`/api/v1/${path}`, { method: "POST", body: form, headers }));
}

/** The audit actions recorded for `entityType`, oldest first. */
export async function auditActions(a: Actors, entityType: string): Promise<string[]> {
  const rows = await a.t.sql`select action from audit_log where entity_type = ${entityType} order by id`;
  return rows.map((r) => r.action as string);
}
