// Registers one operation: its OpenAPI description, the validation of path, query and JSON body with
// valibot, and the handler, which receives the parsed input. Every route of the app goes through here,
// so every route is in the document with its schemas, tag and error responses.
import { toJsonSchema } from "@valibot/to-json-schema";
import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { describeRoute, resolver } from "hono-openapi";
import * as v from "valibot";
import { ApiError, type ValidationIssue } from "../../shared/errors.ts";
import { idInRange } from "../../shared/schemas/fields.ts";
import { unsafeTextIssues } from "../../shared/schemas/unsafe-text.ts";
import { enforceAccess } from "../access.ts";
import type { AppEnv } from "../deps.ts";
import { errorComponentName } from "./errors.ts";
import type { Tag } from "./tags.ts";

type AnySchema = v.GenericSchema;
type Method = "get" | "post" | "put" | "patch" | "delete" | "options";
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;
/** What a handler may answer for a response schema: its input type (what the schema accepts). */
type Answer<R extends AnySchema | undefined> = v.InferInput<NonNullable<R>>;

export interface RouteDef<P, Q, B, R extends AnySchema | undefined = AnySchema | undefined> {
  method: Method | Method[];
  /** Hono path syntax (`/api/v1/hardware/:hardware_id`). */
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Public routes need no credential (spec 5.4 and the probes); everything else does. */
  auth?: "public" | "user";
  /** The scope the caller needs (checked before validation; the verb checks it again). */
  scope?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Also accept the body as application/x-www-form-urlencoded (OAuth2 password-form clients). */
  acceptsForm?: boolean;
  /**
   * A text body of this media type (text/csv), handed to the handler as `text` after the same check for
   * NUL and unpaired surrogates as any JSON body; text/plain is taken too (a paste).
   */
  text?: { contentType: string; description: string };
  /**
   * A multipart/form-data upload, documented here and read by the handler itself (`c.req.parseBody()`):
   * the file field's name and any extra text fields with their descriptions.
   */
  upload?: { file: string; description: string; fields?: Record<string, string> };
  response?: {
    status?: number;
    schema?: R;
    description?: string;
    contentType?: string;
    /** Other media types the same success answers when the request's Accept asks for them (a streamed list). */
    alternatives?: Record<string, AnySchema>;
  };
  /** Statuses this route can answer besides the ones every route of its kind can. */
  errors?: number[];
}

export interface RouteInput<P, Q, B, R extends AnySchema | undefined = AnySchema | undefined> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The text body of a route with `text` ("" otherwise). */
  text: string;
  /**
   * Answers `value` as JSON, type-checked against the response schema, with the route's success status
   * unless another is given (an upsert's 200 beside its 201).
   */
  reply: (value: Answer<R>, status?: ContentfulStatusCode) => Response;
}

export type RouteHandler<P, Q, B, R extends AnySchema | undefined = AnySchema | undefined> = (
  c: Context<AppEnv>,
  input: RouteInput<P, Q, B, R>,
) => Response | Promise<Response>;

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\s*(;|$)/i;
const WRITES: Method[] = ["post", "put", "patch", "delete"];

function toIssues(where: string, issues: readonly v.BaseIssue<unknown>[]): ValidationIssue[] {
  return issues.map((i) => ({
    loc: [where, ...(i.path ?? []).map((p) => p.key as string | number)],
    msg: i.message,
    type: i.type,
  }));
}

function parse<S extends AnySchema | undefined>(where: string, schema: S, value: unknown, raw?: string): Out<S> {
  if (!schema) return undefined as Out<S>;
  const unsafe = unsafeTextIssues(where, value);
  if (unsafe.length > 0) throw ApiError.validation(unsafe, raw);
  const result = v.safeParse(schema, value);
  if (!result.success) {
    if (where === "path")
      throw pathNotFound(result.issues, value as Record<string, string>) ?? ApiError.validation(toIssues(where, result.issues));
    throw ApiError.validation(toIssues(where, result.issues), raw);
  }
  return result.output as Out<S>;
}

/** `hardware_id` -> "hardware", `vlan_pk` -> "vlan", `id` -> "resource": the noun of a 404's sentence. */
const nounOf = (param: string) =>
  param
    .replace(/_(id|pk)$/, "")
    .replace(/_/g, " ")
    .replace(/^id$/, "resource");

/**
 * A well-formed id past the integer range names no row, so it is the same 404 as any missing row
 * (IdParam's range check), not a validation error; any other path problem stays a 422.
 */
function pathNotFound(issues: readonly v.BaseIssue<unknown>[], raw: Record<string, string>): ApiError | undefined {
  const outOfRange = issues.filter((i) => (i as { requirement?: unknown }).requirement === idInRange);
  if (outOfRange.length === 0 || outOfRange.length !== issues.length) return undefined;
  const param = String(outOfRange[0]!.path?.[0]?.key ?? "id");
  const noun = nounOf(param);
  return ApiError.notFound(noun.charAt(0).toUpperCase() + noun.slice(1), raw[param] ?? "");
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

async function readBody(c: Context<AppEnv>, acceptsForm: boolean): Promise<{ raw: string; value: unknown }> {
  const raw = await c.req.text();
  if (raw.trim() === "") return { raw, value: undefined };
  const type = c.req.header("content-type") ?? "";
  if (acceptsForm && FORM_TYPE.test(type)) return { raw, value: Object.fromEntries(new URLSearchParams(raw)) };
  if (!JSON_TYPE.test(type))
    throw ApiError.validation(
      [{ loc: ["body"], msg: `Content-Type must be application/json, got "${type || "none"}".`, type: "content_type" }],
      raw,
    );
  try {
    return { raw, value: JSON.parse(raw) };
  } catch (e) {
    throw ApiError.validation([{ loc: ["body"], msg: `Malformed JSON: ${(e as Error).message}`, type: "json_invalid" }], raw);
  }
}

/** A text body of `contentType` (or text/plain), checked for what no text may hold. */
async function readText(c: Context<AppEnv>, contentType: string): Promise<string> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== contentType && type !== "text/plain")
    throw ApiError.validation([
      { loc: ["body"], msg: `Content-Type must be ${contentType}, got "${type || "none"}".`, type: "content_type" },
    ]);
  const raw = await c.req.text();
  const unsafe = unsafeTextIssues("body", raw);
  if (unsafe.length > 0) throw ApiError.validation(unsafe);
  return raw;
}

function parameters(where: "path" | "query", schema: AnySchema | undefined) {
  if (!schema) return [];
  const json = toJsonSchema(schema, { errorMode: "ignore" }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    description: typeof s.description === "string" ? s.description : undefined,
    schema: s,
  }));
}

function requestContent(body: AnySchema, acceptsForm: boolean) {
  const content: Record<string, { schema: ReturnType<typeof resolver> }> = { "application/json": { schema: resolver(body) } };
  if (acceptsForm) content["application/x-www-form-urlencoded"] = { schema: resolver(body) };
  return content;
}

function uploadBody(u: NonNullable<RouteDef<unknown, unknown, unknown>["upload"]>) {
  const properties: Record<string, unknown> = { [u.file]: { type: "string", format: "binary", description: u.description } };
  for (const [name, description] of Object.entries(u.fields ?? {})) properties[name] = { type: "string", description };
  return { required: true, content: { "multipart/form-data": { schema: { type: "object", properties, required: [u.file] } } } };
}

function errorResponses(def: RouteDef<unknown, unknown, unknown>, methods: Method[]) {
  const statuses = new Set(def.errors ?? []);
  statuses.add(500);
  if (def.auth !== "public") for (const s of [401, 403]) statuses.add(s);
  if (def.params) statuses.add(404);
  if (def.params || def.query || def.body) statuses.add(422);
  if (def.body || def.upload || def.text) statuses.add(413);
  if (def.text) statuses.add(422);
  if (def.upload) statuses.add(422);
  if (methods.some((m) => WRITES.includes(m))) statuses.add(503);
  statuses.add(429);
  return Object.fromEntries([...statuses].sort().map((s) => [String(s), { $ref: `#/components/responses/${errorComponentName(s)}` }]));
}

export function route<
  P extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
  R extends AnySchema | undefined = undefined,
>(app: Hono<AppEnv>, def: RouteDef<P, Q, B, R>, handler: RouteHandler<P, Q, B, R>): void {
  const methods = Array.isArray(def.method) ? def.method : [def.method];
  const ok = def.response;
  const okStatus = String(ok?.status ?? 200);
  const responses: Record<string, unknown> = errorResponses(def as RouteDef<unknown, unknown, unknown>, methods);
  if (ok) {
    responses[okStatus] = {
      description: ok.description ?? "Success",
      ...(ok.schema
        ? {
            content: {
              [ok.contentType ?? "application/json"]: { schema: resolver(ok.schema) },
              ...Object.fromEntries(Object.entries(ok.alternatives ?? {}).map(([type, schema]) => [type, { schema: resolver(schema) }])),
            },
          }
        : {}),
    };
  }
  const spec = describeRoute({
    tags: [def.tag],
    summary: def.summary,
    ...(def.scope || def.description
      ? { description: [def.description, def.scope && `Needs scope \`${def.scope}\`.`].filter(Boolean).join("\n\n") }
      : {}),
    ...(def.auth === "public" ? { security: [] } : {}),
    parameters: [...parameters("path", def.params), ...parameters("query", def.query)] as never,
    // A body schema wrapped in v.optional (a POST whose body may be left out) is documented as optional.
    ...(def.body
      ? {
          requestBody: {
            required: (def.body as { type?: string }).type !== "optional",
            content: requestContent(def.body, def.acceptsForm ?? false),
          },
        }
      : {}),
    ...(def.upload ? { requestBody: uploadBody(def.upload) as never } : {}),
    ...(def.text
      ? {
          requestBody: {
            required: true,
            content: { [def.text.contentType]: { schema: { type: "string", description: def.text.description } } },
          } as never,
        }
      : {}),
    responses: responses as never,
  });
  app.on(
    methods.map((m) => m.toUpperCase()),
    def.path,
    spec,
    async (c) => {
      await enforceAccess(c, def.auth ?? "user", def.scope);
      const params = parse("path", def.params, c.req.param()) as Out<P>;
      const query = parse("query", def.query, c.req.query()) as Out<Q>;
      let body = undefined as Out<B>;
      if (def.body) {
        const { raw, value } = await readBody(c, def.acceptsForm ?? false);
        body = parse("body", def.body, value, raw);
      }
      const text = def.text ? await readText(c, def.text.contentType) : "";
      const reply = (value: Answer<R>, status = Number(okStatus) as ContentfulStatusCode) => c.json(value as object, status);
      return handler(c, { params, query, body, text, reply });
    },
  );
}
