// Registers the standard operations of an inventory resource (list, create, get, patch, put, delete)
// on top of its shared verbs, so every resource answers lists, 404s, 201s, ETags and If-Match alike.
import type { SQL } from "drizzle-orm";
import type { Context, Hono } from "hono";
import * as v from "valibot";
import type { ListParams } from "../../../shared/schemas/list-query.ts";
import { listResponse } from "../../../shared/schemas/list-query.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { parseIfMatch, type resourceVerbs, type Versioned } from "../../../shared/services/inventory/resource.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import type { Tag } from "../../openapi/tags.ts";

type AnySchema = v.GenericSchema;
type Verbs<Api> = ReturnType<typeof resourceVerbs<Api>>;

export interface ResourceRouteOptions<Api, Q extends AnySchema> {
  verbs: Verbs<Api>;
  tag: Tag;
  /** e.g. "/api/v1/hardware" */
  basePath: string;
  /** e.g. "hardware_id" (the catalogue's parameter name) */
  idParam: string;
  /** Singular and plural nouns for summaries. */
  noun: [string, string];
  item: AnySchema;
  create: AnySchema;
  patch: AnySchema;
  /** PUT replaces the writable fields (clients send the whole record back). */
  put?: AnySchema;
  query: Q;
  /** What deleting does to the things that point at the row (409 or unlink), for the DELETE description. */
  deleteDescription?: string;
  /** Rules of the writable fields or of who may write, for the create/patch/put descriptions. */
  writeDescription?: string;
  /** Turns the parsed list query's filters into conditions. */
  filters?: (query: v.InferOutput<Q>) => (SQL | undefined)[];
}

export function withEtag<Api>(c: Context<AppEnv>, { item, version }: Versioned<Api>, status: 200 | 201 = 200): Response {
  if (version !== undefined) c.header("ETag", `W/"${version}"`);
  return c.json(item as object, status);
}

export function resourceRoutes<Api, Q extends AnySchema>(app: Hono<AppEnv>, o: ResourceRouteOptions<Api, Q>): void {
  const { verbs, tag, basePath, noun } = o;
  const idPath = `${basePath}/:${o.idParam}`;
  const params = IdParam(o.idParam);
  const id = (p: Record<string, number>) => p[o.idParam]!;
  const ifMatch = (c: Context<AppEnv>) => parseIfMatch(c.req.header("if-match"));

  route(
    app,
    {
      method: "get", path: basePath, tag, summary: `List ${noun[1]}`, scope: verbs.scopes.read,
      description: "Paged: limit (default 25, at most 100), offset, sort, direction, q (case-insensitive search) and filters.",
      query: o.query, response: { schema: listResponse(o.item) },
    },
    async (c, { query }) => {
      const where = o.filters ? o.filters(query) : [];
      return c.json(await verbs.list({ ctx: verbContext(c), params: query as ListParams, where }));
    },
  );

  route(
    app,
    { method: "post", path: basePath, tag, summary: `Create a ${noun[0]}`, scope: verbs.scopes.write, description: o.writeDescription, body: o.create, response: { status: 201, schema: o.item }, errors: [409] },
    async (c, { body }) => withEtag(c, await verbs.create({ ctx: verbContext(c), input: body as Record<string, unknown> }), 201),
  );

  route(
    app,
    { method: "get", path: idPath, tag, summary: `Get a ${noun[0]}`, scope: verbs.scopes.read, params, response: { schema: o.item } },
    async (c, { params: p }) => withEtag(c, await verbs.get({ ctx: verbContext(c), id: id(p) })),
  );

  const update = (body: AnySchema, method: "patch" | "put", summary: string) =>
    route(
      app,
      { method, path: idPath, tag, summary, scope: verbs.scopes.write, description: o.writeDescription, params, body, response: { schema: o.item }, errors: [409, 412] },
      async (c, { params: p, body: b }) =>
        withEtag(c, await verbs.update({ ctx: verbContext(c), id: id(p), input: b as Record<string, unknown>, ifMatch: ifMatch(c) })),
    );
  update(o.patch, "patch", `Change some fields of a ${noun[0]} (only the given fields; If-Match honoured)`);
  if (o.put) update(o.put, "put", `Replace a ${noun[0]}'s writable fields (If-Match honoured)`);

  route(
    app,
    {
      method: "delete", path: idPath, tag, summary: `Delete a ${noun[0]}`, scope: verbs.scopes.delete, params, description: o.deleteDescription,
      response: { status: 204, description: "Deleted" }, errors: [409, 412],
    },
    async (c, { params: p }) => {
      await verbs.remove({ ctx: verbContext(c), id: id(p), ifMatch: ifMatch(c) });
      return c.body(null, 204);
    },
  );
}
