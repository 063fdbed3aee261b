// [kb] The knowledge base: /kb/hostname (patterns by id) and /kb/oui (MAC prefixes by prefix), each with
// list, create-or-bulk-import, PUT, DELETE and a JSON export that the bulk POST reads back.
import type { Context, Hono } from "hono";
import * as v from "valibot";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  BulkReport, HostnameEntry, HostnameExport, HostnameList, HostnameListQuery, HostnamePost, HostnameView, KB_BULK_MAX, OuiExport, OuiList,
  OuiListQuery, OuiPost, OuiPrefix, OuiUpdate, OuiView,
} from "../../../shared/schemas/kb.ts";
import { exportHostnames, hostnamesDef, importHostnames } from "../../../shared/services/kb/hostnames.ts";
import { createOui, deleteOui, exportOui, importOui, listOui, type OuiInput, updateOui } from "../../../shared/services/kb/oui.ts";
import { resourceVerbs } from "../../../shared/services/inventory/resource.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export const hostnameVerbs = resourceVerbs(hostnamesDef);
const tag = "kb" as const;
const BULK = `Send one entry to create it (201, 409 when its key exists), or \`{entries: [...]}\` (at most ${KB_BULK_MAX}; the export's shape) to upsert them all in one transaction: each entry replaces the stored one with its key, and the answer (200) counts {created, updated}.`;
const PrefixParam = v.object({ prefix: OuiPrefix });

/** The bulk form answers its counts, the single form the created entry. */
async function createOrImport<E>(c: Context<AppEnv>, body: E | { entries: E[] }, one: (e: E) => Promise<unknown>, many: (e: E[]) => Promise<unknown>) {
  if (typeof body === "object" && body !== null && "entries" in body) return c.json(await many(body.entries), 200);
  return c.json(await one(body as E), 201);
}

export function kbRoutes(app: Hono<AppEnv>): void {
  const { scopes } = hostnameVerbs;
  route(
    app,
    { method: "get", path: "/api/v1/kb/hostname/export", tag, scope: "read:kb", summary: "Every hostname pattern as JSON (POST /kb/hostname reads it back)", response: { schema: HostnameExport } },
    async (c) => c.json(await exportHostnames({ ctx: verbContext(c) })),
  );
  route(
    app,
    { method: "get", path: "/api/v1/kb/hostname", tag, scope: scopes.read, query: HostnameListQuery, summary: "List hostname patterns", response: { schema: HostnameList } },
    async (c, { query }) => c.json(await hostnameVerbs.list({ ctx: verbContext(c), params: query })),
  );
  route(
    app,
    {
      method: "post", path: "/api/v1/kb/hostname", tag, scope: scopes.write, body: HostnamePost, errors: [409],
      summary: "Add a hostname pattern, or bulk-import patterns", description: BULK, response: { status: 201, schema: v.union([HostnameView, BulkReport]) },
    },
    async (c, { body }) => {
      const ctx = verbContext(c);
      return createOrImport<Record<string, unknown>>(c, body, async (input) => (await hostnameVerbs.create({ ctx, input })).item, (entries) => importHostnames({ ctx, entries }));
    },
  );
  const params = IdParam("entry_id");
  route(
    app,
    { method: "put", path: "/api/v1/kb/hostname/:entry_id", tag, scope: scopes.write, params, body: HostnameEntry, errors: [409], summary: "Replace a hostname pattern entry", response: { schema: HostnameView } },
    async (c, { params: p, body }) =>
      c.json((await hostnameVerbs.update({ ctx: verbContext(c), id: p.entry_id!, input: { vendor: null, device_type: null, notes: null, ...body } })).item),
  );
  route(
    app,
    { method: "delete", path: "/api/v1/kb/hostname/:entry_id", tag, scope: scopes.delete, params, summary: "Delete a hostname pattern entry", response: { status: 204, description: "Deleted" } },
    async (c, { params: p }) => {
      await hostnameVerbs.remove({ ctx: verbContext(c), id: p.entry_id! });
      return c.body(null, 204);
    },
  );

  route(
    app,
    { method: "get", path: "/api/v1/kb/oui/export", tag, scope: "read:kb", summary: "Every OUI prefix as JSON (POST /kb/oui reads it back)", response: { schema: OuiExport } },
    async (c) => c.json(await exportOui({ ctx: verbContext(c) })),
  );
  route(
    app,
    { method: "get", path: "/api/v1/kb/oui", tag, scope: "read:kb", query: OuiListQuery, summary: "List OUI prefixes", response: { schema: OuiList } },
    async (c, { query }) => c.json(await listOui({ ctx: verbContext(c), params: query })),
  );
  route(
    app,
    {
      method: "post", path: "/api/v1/kb/oui", tag, scope: "write:kb", body: OuiPost, errors: [409],
      summary: "Add an OUI prefix (6 hex digits, stored as AA:BB:CC), or bulk-import prefixes", description: BULK,
      response: { status: 201, schema: v.union([OuiView, BulkReport]) },
    },
    async (c, { body }) => {
      const ctx = verbContext(c);
      return createOrImport<OuiInput>(c, body, (input) => createOui({ ctx, input }), (entries) => importOui({ ctx, entries }));
    },
  );
  route(
    app,
    {
      method: "put", path: "/api/v1/kb/oui/:prefix", tag, scope: "write:kb", params: PrefixParam, body: OuiUpdate,
      summary: "Replace an OUI prefix's vendor and notes (the prefix in any of its spellings)", response: { schema: OuiView },
    },
    async (c, { params: p, body }) => c.json(await updateOui({ ctx: verbContext(c), prefix: p.prefix, input: body })),
  );
  route(
    app,
    { method: "delete", path: "/api/v1/kb/oui/:prefix", tag, scope: "delete:kb", params: PrefixParam, summary: "Delete an OUI prefix", response: { status: 204, description: "Deleted" } },
    async (c, { params: p }) => {
      await deleteOui({ ctx: verbContext(c), prefix: p.prefix });
      return c.body(null, 204);
    },
  );
}
