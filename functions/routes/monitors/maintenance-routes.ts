// [monitors] maintenance windows (ours, beyond the catalogue): one-off {starts_at, ends_at} or recurring
// {cron, duration_minutes, timezone}, covering monitor ids and/or a target, a site or a tag.
import type { Context, Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  MaintenanceListQuery,
  MaintenanceWindow,
  MaintenanceWindowBody,
  MaintenanceWindowList,
  MaintenanceWindowPatchBody,
} from "../../../shared/schemas/monitors.ts";
import { createWindow, deleteWindow, getWindow, listWindows, patchWindow } from "../../../shared/verbs/monitors/maintenance/windows.ts";
import { parseIfMatch } from "../../../shared/verbs/resources/if-match.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { withVersion } from "../updated-at-etag.ts";

const BASE = "/api/v1/monitors/maintenance-windows";
const ONE = `${BASE}/:window_id`;
const params = IdParam("window_id");
const ifMatch = (c: Context<AppEnv>) => parseIfMatch(c.req.header("if-match"));
const SHAPE =
  "One-off: `starts_at` and `ends_at` (ISO 8601 with a zone). Recurring: `cron` (croner syntax), `duration_minutes` and `timezone` (IANA, default UTC), optionally bounded by starts_at/ends_at. Covers `monitor_ids`, plus every monitor of `target_type`/`target_id`, plus every monitor whose target sits on hardware (itself, or the hardware its compute unit or service runs on) at `site_id` and/or tagged `tag` (both given: both must hold). At least one of these. Covered monitors are `maintenance` and silenced while it is open.";

export function maintenanceRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "monitors",
      scope: listWindows.scope,
      query: MaintenanceListQuery,
      response: { schema: MaintenanceWindowList },
      summary: "List maintenance windows",
      description:
        "The list envelope; filters `enabled`, `monitor_id` (windows listing it). Each window says whether it is `active` now (and `current_ends_at`, when that occurrence ends) and when it `next_starts_at`.",
    },
    async (c, { query, reply }) => reply(await listWindows({ ctx: verbContext(c), input: query })),
  );
  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: "monitors",
      scope: createWindow.scope,
      body: MaintenanceWindowBody,
      response: { status: 201, schema: MaintenanceWindow },
      summary: "Create a maintenance window",
      description: `${SHAPE} The ETag is the window's version.`,
    },
    async (c, { body, reply }) => reply(withVersion(c, await createWindow({ ctx: verbContext(c), input: { body } })), 201),
  );
  route(
    app,
    {
      method: "get",
      path: ONE,
      tag: "monitors",
      scope: getWindow.scope,
      params,
      response: { schema: MaintenanceWindow },
      summary: "One maintenance window",
      description: "The ETag is the window's version (its updated_at), which PATCH and DELETE take in If-Match.",
    },
    async (c, { params: p, reply }) => reply(withVersion(c, await getWindow({ ctx: verbContext(c), input: { id: p.window_id } }))),
  );
  route(
    app,
    {
      method: "patch",
      path: ONE,
      tag: "monitors",
      scope: patchWindow.scope,
      params,
      body: MaintenanceWindowPatchBody,
      response: { schema: MaintenanceWindow },
      errors: [412],
      summary: "Change a maintenance window",
      description: `Only the fields given change; the result is checked whole. With \`If-Match\` (the ETag of GET) a window changed since is a 412. ${SHAPE}`,
    },
    async (c, { params: p, body, reply }) =>
      reply(withVersion(c, await patchWindow({ ctx: verbContext(c), input: { id: p.window_id, body, ifMatch: ifMatch(c) } }))),
  );
  route(
    app,
    {
      method: "delete",
      path: ONE,
      tag: "monitors",
      scope: deleteWindow.scope,
      params,
      response: { status: 204, description: "Deleted" },
      errors: [412],
      summary: "Delete a maintenance window",
      description: "With `If-Match` (the ETag of GET) a window changed since is a 412 and stays.",
    },
    async (c, { params: p }) => {
      await deleteWindow({ ctx: verbContext(c), input: { id: p.window_id, ifMatch: ifMatch(c) } });
      return c.body(null, 204);
    },
  );
}
