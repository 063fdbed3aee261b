// [kb] The knowledge base: /kb/hostname (patterns by id) and /kb/oui (MAC prefixes by prefix), each with
// list, create-or-bulk-import, PUT, DELETE and a JSON export that the bulk POST reads back.
import type { Hono } from "hono";
import type * as v from "valibot";
import {
  type BulkReport,
  HostnameEntry,
  HostnameExport,
  HostnamePost,
  HostnamePosted,
  HostnameListQuery,
  HostnameView,
  KB_BULK_MAX,
  OuiExport,
  OuiListQuery,
  OuiParam,
  OuiPost,
  OuiPosted,
  OuiUpdate,
  OuiView,
} from "../../../shared/schemas/kb.ts";
import { exportHostnames, hostnameVerbs, importHostnames } from "../../../shared/verbs/kb/hostnames.ts";
import { exportOui, importOui, ouiVerbs } from "../../../shared/verbs/kb/oui.ts";
import type { Verb } from "../../../shared/verbs/verb.ts";
import type { Versioned } from "../../../shared/verbs/resources/resource-verbs.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "../inventory/resource-routes.ts";

const tag = "kb" as const;
const BULK = `Send one entry to create it (201, 409 when its key exists), or \`{entries: [...]}\` (at most ${KB_BULK_MAX}; the export's shape) to upsert them all in one transaction: each entry replaces the stored one with its key, and the answer (200) counts {created, updated}.`;

const isBulk = <E>(body: unknown): body is { entries: E[] } => typeof body === "object" && body !== null && "entries" in body;

/** GET /api/v1<path>/export and POST /api/v1<path>, which takes one entry (created: 201) or `{entries}` (upserted: 200). */
function exportAndPost<C, E, Item extends v.GenericSchema, Export extends v.GenericSchema>(
  app: Hono<AppEnv>,
  o: {
    path: string;
    what: string;
    summary: string;
    exporter: Verb<void, v.InferInput<Export>>;
    exportSchema: Export;
    body: v.GenericSchema<unknown, NoInfer<C> | { entries: NoInfer<E>[] }>;
    item: Item;
    posted: v.UnionSchema<[Item, typeof BulkReport], undefined>;
    create: Verb<C, Versioned<v.InferInput<Item>>>;
    bulk: Verb<E[], v.InferInput<typeof BulkReport>>;
  },
) {
  route(
    app,
    {
      method: "get",
      path: `/api/v1${o.path}/export`,
      tag,
      scope: o.exporter.scope,
      summary: `Every ${o.what} as JSON (POST ${o.path} reads it back)`,
      response: { schema: o.exportSchema },
    },
    async (c, { reply }) => reply(await o.exporter({ ctx: verbContext(c) })),
  );
  route(
    app,
    {
      method: "post",
      path: `/api/v1${o.path}`,
      tag,
      scope: o.create.scope,
      body: o.body,
      errors: [409],
      summary: o.summary,
      description: BULK,
      response: { status: 201, schema: o.posted },
    },
    async (c, { body, reply }) => {
      const ctx = verbContext(c);
      if (isBulk<E>(body)) return reply(await o.bulk({ ctx, input: body.entries }), 200);
      return reply((await o.create({ ctx, input: body })).item);
    },
  );
}

export function kbRoutes(app: Hono<AppEnv>): void {
  exportAndPost(app, {
    path: "/kb/hostname",
    what: "hostname pattern",
    summary: "Add a hostname pattern, or bulk-import patterns",
    exporter: exportHostnames,
    exportSchema: HostnameExport,
    body: HostnamePost,
    item: HostnameView,
    posted: HostnamePosted,
    create: hostnameVerbs.create,
    bulk: importHostnames,
  });
  resourceRoutes(app, {
    verbs: hostnameVerbs,
    tag,
    basePath: "/api/v1/kb/hostname",
    idParam: "entry_id",
    noun: ["hostname pattern", "hostname patterns"],
    get: false,
    item: HostnameView,
    query: HostnameListQuery,
    put: HostnameEntry,
    putDefaults: { vendor: null, device_type: null, notes: null },
    summaries: { put: "Replace a hostname pattern entry", delete: "Delete a hostname pattern entry" },
  });

  exportAndPost(app, {
    path: "/kb/oui",
    what: "OUI prefix",
    summary: "Add an OUI prefix (6 hex digits, stored as AA:BB:CC), or bulk-import prefixes",
    exporter: exportOui,
    exportSchema: OuiExport,
    body: OuiPost,
    item: OuiView,
    posted: OuiPosted,
    create: ouiVerbs.create,
    bulk: importOui,
  });
  resourceRoutes(app, {
    verbs: ouiVerbs,
    tag,
    basePath: "/api/v1/kb/oui",
    idParam: "prefix",
    params: OuiParam,
    noun: ["OUI prefix", "OUI prefixes"],
    get: false,
    item: OuiView,
    query: OuiListQuery,
    put: OuiUpdate,
    putDefaults: { notes: null },
    summaries: { put: "Replace an OUI prefix's vendor and notes (the prefix in any of its spellings)", delete: "Delete an OUI prefix" },
  });
}
