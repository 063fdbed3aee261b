// Registers the standard operations of a resource of the resource engine (list, create, get, patch, put,
// delete) on top of its verbs, so every resource answers lists, 404s, 201s, ETags and If-Match alike.
// A resource that lists or creates in its own way registers that route itself and leaves it out here.
import type { Context, Hono } from "hono";
import type * as v from "valibot";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { type ListParams, listResponse } from "../../../shared/schemas/list-query.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import type { ResourceVerbs, Versioned } from "../../../shared/verbs/resources/resource-verbs.ts";
import { verbContext } from "../../context.ts";
import { NDJSON, ndjsonLines, STREAMED_LIST_DOC, wantsNdjson } from "../../ndjson.ts";
import { streamedResponse } from "../../streamed-response.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import type { Tag } from "../../openapi/tags.ts";
import { bulkRoutes } from "./bulk-routes.ts";
import { exportRoutes } from "./export-routes.ts";
import { importRoutes } from "./import-routes.ts";

type AnySchema = v.GenericSchema;

/** The list description's part on custom fields, for an inventory kind's list (docs/custom-fields.md). */
const CUSTOM_FIELD_LIST_DOC =
  " Custom fields (GET /api/v1/custom-fields?kind=): `cf_<name>=value` keeps the objects with that value (a multi-selection: containing it), `cf_<name>__gte` / `cf_<name>__lte` bound number and date fields, `sort=cf_<name>` sorts by one; a name the kind has no field of is a 422.";
/** A request schema whose parsed value the verb accepts. */
type Accepted<T> = v.GenericSchema<unknown, NoInfer<T>>;
type Operation = "list" | "create" | "get" | "patch" | "put" | "delete";

export interface ResourceRouteOptions<IS extends AnySchema, Q, V, K, N extends string> {
  /** The read shape the verbs answer must be what `item` describes. */
  verbs: ResourceVerbs<v.InferInput<IS>, Q, V, K>;
  tag: Tag;
  /** e.g. "/api/v1/hardware" */
  basePath: string;
  /** e.g. "hardware_id" (the catalogue's parameter name) */
  idParam: N;
  /** The path parameter's schema when the key is not an integer id (an OUI prefix). */
  params?: v.GenericSchema<unknown, Record<N, NoInfer<K>>>;
  /** Singular and plural nouns for summaries. */
  noun: [string, string];
  item: IS;
  /** GET basePath; left out where the resource lists in its own way. */
  query?: Accepted<Q>;
  /** POST basePath; left out where the resource creates in its own way. */
  create?: Accepted<V>;
  patch?: Accepted<V>;
  /** PUT replaces the writable fields (clients send the whole record back). */
  put?: Accepted<V>;
  /** What the fields a PUT leaves out become (a replace clears them), when not left as they are. */
  putDefaults?: NoInfer<V>;
  /** GET {id}; on unless false. */
  get?: boolean;
  /** DELETE {id}; on unless false (a resource whose delete is its own route, behind a confirmation). */
  delete?: boolean;
  /** Summaries other than the standard ones. */
  summaries?: Partial<Record<Operation, string>>;
  /** What deleting does to the things that point at the row (409 or unlink), for the DELETE description. */
  deleteDescription?: string;
  /** Rules of the writable fields or of who may write, for the create/patch/put descriptions. */
  writeDescription?: string;
  /**
   * The console's list actions (integer keys only): POST {base}/bulk-delete, {base}/bulk-update (with `patch`),
   * {base}/bulk-tags when the resource carries tags, GET {base}/export.csv (with `query`) and POST
   * {base}/import.csv (with `create` and `patch`).
   */
  bulk?: K extends number ? { tags: boolean } : never;
}

/** Answers a read or write of the engine: its ETag when the resource is versioned, then the item. */
export function withEtag<Api>(c: Context<AppEnv>, { item, version }: Versioned<Api>, reply: (item: Api) => Response): Response {
  if (version !== undefined) c.header("ETag", `W/"${version}"`);
  return reply(item);
}

export function resourceRoutes<IS extends AnySchema, Q, V, K, N extends string>(
  app: Hono<AppEnv>,
  o: ResourceRouteOptions<IS, Q, V, K, N>,
): void {
  const { verbs, tag, basePath, noun } = o;
  const idPath = `${basePath}/:${o.idParam}`;
  // Without a schema of its own the key is an integer id, which is what IdParam reads.
  const params = (o.params ?? IdParam(o.idParam)) as v.GenericSchema<unknown, Record<N, K>>;
  const ifMatch = (c: Context<AppEnv>) => parseIfMatch(c.req.header("if-match"));
  const summary = (op: Operation, standard: string) => o.summaries?.[op] ?? standard;

  if (o.query)
    route(
      app,
      {
        method: "get",
        path: basePath,
        tag,
        summary: summary("list", `List ${noun[1]}`),
        scope: verbs.list.scope,
        description: `Paged: limit (default 25, at most 100), offset, sort, direction, q (case-insensitive search) and filters.${
          (o.query as { type?: string }).type === "object_with_rest" ? CUSTOM_FIELD_LIST_DOC : ""
        } ${STREAMED_LIST_DOC}`,
        query: o.query,
        response: { schema: listResponse(o.item), alternatives: { [NDJSON]: o.item } },
      },
      async (c, { query, reply }) => {
        const ctx = verbContext(c);
        c.header("Vary", "Accept");
        if (!wantsNdjson(c.req.header("accept"))) return reply(await verbs.list({ ctx, input: query }));
        return streamedResponse(c, { "Content-Type": `${NDJSON}; charset=utf-8`, Vary: "Accept" }, (write) =>
          verbs.stream({ ctx, input: { query, write: (items) => write(ndjsonLines(items)) } }),
        );
      },
    );

  // Before GET {id}, which would take "export.csv" for an id.
  if (o.bulk && o.query)
    exportRoutes(app, {
      verbs: verbs as unknown as ResourceVerbs<unknown, ListParams, V, number>,
      tag,
      basePath,
      noun,
      query: o.query,
      item: o.item,
    });

  if (o.create)
    route(
      app,
      {
        method: "post",
        path: basePath,
        tag,
        summary: summary("create", `Create a ${noun[0]}`),
        scope: verbs.create.scope,
        description: o.writeDescription,
        body: o.create,
        response: { status: 201, schema: o.item },
        errors: [409],
      },
      async (c, { body, reply }) => withEtag(c, await verbs.create({ ctx: verbContext(c), input: body }), reply),
    );

  if (o.get !== false)
    route(
      app,
      {
        method: "get",
        path: idPath,
        tag,
        summary: summary("get", `Get a ${noun[0]}`),
        scope: verbs.get.scope,
        params,
        response: { schema: o.item },
      },
      async (c, { params: p, reply }) => withEtag(c, await verbs.get({ ctx: verbContext(c), input: { id: p[o.idParam] } }), reply),
    );

  const update = (body: Accepted<V>, method: "patch" | "put", standard: string, defaults?: V) =>
    route(
      app,
      {
        method,
        path: idPath,
        tag,
        summary: summary(method, standard),
        scope: verbs.update.scope,
        description: o.writeDescription,
        params,
        body,
        response: { schema: o.item },
        errors: [409, 412],
      },
      async (c, { params: p, body: b, reply }) => {
        const values = defaults ? { ...defaults, ...b } : b;
        return withEtag(c, await verbs.update({ ctx: verbContext(c), input: { id: p[o.idParam], values, ifMatch: ifMatch(c) } }), reply);
      },
    );
  if (o.patch) update(o.patch, "patch", `Change some fields of a ${noun[0]} (only the given fields; If-Match honoured)`);
  if (o.put) update(o.put, "put", `Replace a ${noun[0]}'s writable fields (If-Match honoured)`, o.putDefaults);

  if (o.delete !== false)
    route(
      app,
      {
        method: "delete",
        path: idPath,
        tag,
        summary: summary("delete", `Delete a ${noun[0]}`),
        scope: verbs.remove.scope,
        params,
        description: o.deleteDescription,
        response: { status: 204, description: "Deleted" },
        errors: [409, 412],
      },
      async (c, { params: p }) => {
        await verbs.remove({ ctx: verbContext(c), input: { id: p[o.idParam], ifMatch: ifMatch(c) } });
        return c.body(null, 204);
      },
    );
  if (o.bulk && o.create && o.patch)
    importRoutes(app, {
      verbs: verbs as unknown as ResourceVerbs<unknown, unknown, V, number>,
      tag,
      basePath,
      noun,
      create: o.create,
      patch: o.patch,
      item: o.item,
    });
  // The option's type admits it only for integer keys, which is what the bulk bodies carry.
  if (o.bulk)
    bulkRoutes(app, {
      verbs: verbs as unknown as ResourceVerbs<v.InferInput<IS>, Q, V, number>,
      tag,
      basePath,
      noun,
      tags: o.bulk.tags,
      ...(o.patch ? { patch: o.patch as v.GenericSchema<unknown, Record<string, unknown>> } : {}),
    });
}
