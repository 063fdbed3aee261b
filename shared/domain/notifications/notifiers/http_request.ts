// The generic "HTTP request" (issue 30): for a service with no provider of its own, the operator writes the
// method, the URL (fixed, checked against the outbound policy like every URL), the headers (sealed: they
// usually carry a token) and the body, a mustache template over the alert's fields (../templates.ts).
// In a JSON body each value is escaped for a JSON string, so `"text": "{{message}}"` stays valid JSON
// whatever quotes or newlines the message holds; in a form body each is percent-encoded.
import { checkTemplate, renderTemplate, templateView } from "../templates.ts";
import type { HttpNotifier, HttpRequestSpec } from "./notifier.ts";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** type/subtype with optional parameters, nothing that could end the header line. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;[^\r\n]*)?$/;
/** Set by the sender from the request itself: a header line cannot override them. */
const SENDER_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

const headerLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** Why `value` is not "Name: value" lines, or null (the message quotes the name only: values are secret). */
export function headerLinesProblem(value: unknown): string | null {
  for (const line of headerLines(String(value))) {
    const colon = line.indexOf(":");
    const name = line.slice(0, Math.max(colon, 0)).trim();
    if (colon <= 0 || !TOKEN.test(name)) return 'must be "Name: value" lines';
    if (SENDER_HEADERS.has(name.toLowerCase())) return `cannot set ${name} (the sender sets it)`;
  }
  return null;
}

/** The header lines as a map, names in lower case (a later line with the same name wins). */
export const parseHeaderLines = (text: string): Record<string, string> =>
  Object.fromEntries(
    headerLines(text).map((l) => {
      const colon = l.indexOf(":");
      return [l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim()];
    }),
  );

/** How a value is written into the body: for a JSON string, for a form, or as it is. */
function escaperFor(contentType: string): (s: string) => string {
  const type = contentType.toLowerCase();
  if (/[/+]json\b/.test(type)) return (s) => JSON.stringify(s).slice(1, -1);
  if (type.startsWith("application/x-www-form-urlencoded")) return encodeURIComponent;
  return (s) => s;
}

export const http_request = {
  type: "http_request",
  label: "HTTP request",
  transport: "http",
  fields: {
    method: { kind: "choice", options: ["GET", "POST", "PUT", "PATCH"], hint: "POST unless set. A GET sends no body." },
    url: { kind: "url", required: true },
    headers: {
      kind: "text",
      secret: true,
      check: headerLinesProblem,
      hint: 'One "Name: value" per line, e.g. Authorization: Bearer <token>. Sealed like a token, never shown again.',
    },
    content_type: {
      kind: "string",
      check: (v) => (MEDIA_TYPE.test(String(v)) ? null : "must be a media type such as application/json"),
      hint: "application/json unless set. In a JSON body each {{value}} is escaped for a JSON string.",
    },
    request_body: {
      kind: "text",
      check: checkTemplate,
      hint: 'The body, a mustache template over the alert\'s fields, e.g. {"text": "{{title}}: {{message}}"}. Empty: the fields as JSON.',
    },
  },
  render({ config, secrets, message: m }): HttpRequestSpec {
    const method = (config.method ?? "POST") as HttpRequestSpec["method"];
    const url = String(config.url);
    const headers = parseHeaderLines(secrets.headers ?? "");
    if (method === "GET") return { method, url, headers, body: "" };
    const contentType = String(config.content_type ?? "application/json");
    const view = templateView(m);
    const template = typeof config.request_body === "string" && config.request_body !== "" ? config.request_body : null;
    const body = template ? renderTemplate(template, view, escaperFor(contentType)) : JSON.stringify(view);
    return { method, url, headers: { "content-type": contentType, ...headers }, body };
  },
} satisfies HttpNotifier<"http_request">;
