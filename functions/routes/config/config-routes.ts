// /config (catalogue group admin; docs/cli.md "Configuration as code"): apply a lab file's objects in
// one transaction or answer its diff, write the inventory as a lab file, and publish the file format's
// JSON Schema for editors.
import type { Hono } from "hono";
import {
  ApplyBody,
  ApplyQuery,
  ApplyResult,
  ConfigDocument,
  ConfigExportQuery,
  ConfigObjectList,
  ConfigObjectsQuery,
} from "../../../shared/schemas/config.ts";
import { applyConfig } from "../../../shared/verbs/config/apply-config.ts";
import { CONFIG_SCHEMA_ID, configSchema } from "../../../shared/verbs/config/config-schema.ts";
import { exportConfig } from "../../../shared/verbs/config/export-config.ts";
import { listConfigObjects } from "../../../shared/verbs/config/list-config-objects.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

/** Its body limit is the import's (MAX_IMPORT_BYTES): a lab file of thousands of objects is one request. */
export const APPLY_PATH = "/api/v1/config/apply";

export function configRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "post",
      path: APPLY_PATH,
      tag: "admin",
      scope: applyConfig.scope,
      summary: "Apply a lab file's objects in one transaction (or answer the diff with dry_run)",
      description: [
        "Each entry {kind, key, fields} is found by its key: the owner's recorded objects first, else the one object of its kind with that name (adopted), else it is created. Fields are laid over the stored object; references (`site: <key>`) and links (`depends_on: [<key>]`) name other entries by key. The inventory rows that differ are written by the inventory import (its validation, reference, uniqueness and constraint checks); monitors, notification_sinks, alert_routes and status_pages through their own create, patch and delete verbs (the same checks, secrets sealed in the vault and never answered: a diff masks them) in the same transaction. Any refusal is a 422 naming the entry and nothing is changed. A second apply of the same objects changes nothing.",
        "prune=true also deletes the owner's recorded objects the request no longer names (never an object the owner did not create or adopt). 200 with every entry's action (create, update with the changed fields, delete, unchanged).",
        "dry_run=true: nothing is written: the inventory rows are checked by the import's dry run, the monitoring objects against the API's create and patch rules; applied false.",
      ].join("\n\n"),
      query: ApplyQuery,
      body: ApplyBody,
      response: { schema: ApplyResult },
      errors: [409],
    },
    async (c, { query, body, reply }) =>
      reply(
        await applyConfig({
          ctx: verbContext(c),
          input: { owner: body.owner, objects: body.objects, prune: body.prune, dryRun: query.dry_run },
        }),
      ),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/config/objects",
      tag: "admin",
      scope: listConfigObjects.scope,
      summary: "Which lab file (owner) made or adopted each object, under which key",
      description:
        "The ownership rows apply records: filter by kind (a lab file kind: hardware, services, monitors, ...), owner and object_id. An object listed here is overwritten by the next apply of its owner's file and deleted by one with prune that no longer names it.",
      query: ConfigObjectsQuery,
      response: { schema: ConfigObjectList },
    },
    async (c, { query, reply }) => reply(await listConfigObjects({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/config/export",
      tag: "admin",
      scope: exportConfig.scope,
      summary: "The inventory as a lab file (JSON; the CLI writes it as YAML)",
      description:
        "Every configuration kind's objects with their configuration fields (nulls left out), keyed by the owner's recorded key or their name, references and links by key.",
      query: ConfigExportQuery,
      response: { schema: ConfigDocument },
    },
    async (c, { query, reply }) => reply(await exportConfig({ ctx: verbContext(c), input: { owner: query.owner } })),
  );

  route(
    app,
    {
      method: "get",
      path: CONFIG_SCHEMA_ID,
      tag: "admin",
      auth: "public",
      summary: "The JSON Schema of a lab file, for editors (public: it describes the format, not any data)",
      response: { schema: ConfigDocument, contentType: "application/schema+json" },
    },
    async (_c, { reply }) => reply(configSchema()),
  );
}
