// A list answered as NDJSON (docs/adr/0503): one JSON item per line, asked for with
// `Accept: application/x-ndjson` on the list's own route, so the JSON envelope stays what other clients get.

export const NDJSON = "application/x-ndjson";

/** The list route's description of the streamed answer (OpenAPI), one text for every list that has it. */
export const STREAMED_LIST_DOC =
  "With `Accept: application/x-ndjson` the answer is instead every matching item (the same filters, q, sort and direction; limit and offset do not apply), one JSON object per line with no envelope, streamed from one consistent snapshot as it is read: one request against the rate limit whatever the list's length. A refusal comes before the first line as the usual error envelope; an error after it cuts the response off (no final chunk), so a client can tell a whole list from a broken one.";

/** True when the Accept header names application/x-ndjson with a non-zero quality. */
export function wantsNdjson(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    if (type !== NDJSON) return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Items as NDJSON lines, each ending in a newline. */
export function ndjsonLines(items: unknown[]): string {
  let text = "";
  for (const item of items) text += `${JSON.stringify(item)}\n`;
  return text;
}
