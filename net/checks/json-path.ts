// The http check's json_path: dotted keys with [i] indexes ("data.items[0].name", optionally "$."-led),
// the value found compared as text (a string as it is, anything else as JSON) to expected_value.

export type JsonPathFound = { ok: true; text: string } | { ok: false; reason: string };

const STEP = /([^.[\]]+)|\[(\d+)\]/g;

export function jsonPathValue(body: string, path: string): JsonPathFound {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: "the body is not JSON" };
  }
  const clean = path.replace(/^\$\.?/, "");
  for (const m of clean.matchAll(STEP)) {
    const key = m[1] ?? Number(m[2]);
    if (value === null || typeof value !== "object" || !(key in (value as object)))
      return { ok: false, reason: `${path} not found in the body` };
    value = (value as Record<string | number, unknown>)[key];
  }
  return { ok: true, text: typeof value === "string" ? value : JSON.stringify(value) };
}
