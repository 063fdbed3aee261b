// [misc] /misc (list, create) and /misc/{item_id} (GET, PATCH, DELETE).
import type { Hono } from "hono";
import { miscItems } from "../../../shared/db/schema/index.ts";
import { MiscCreate, MiscItem, MiscListQuery, MiscPatch } from "../../../shared/schemas/misc.ts";
import { eqFilter, tagFilter } from "../../../shared/services/inventory/filters.ts";
import { miscDef } from "../../../shared/services/inventory/misc/def.ts";
import { resourceVerbs } from "../../../shared/services/inventory/resource.ts";
import type { AppEnv } from "../../deps.ts";
import { resourceRoutes } from "./resource-routes.ts";

export const miscVerbs = resourceVerbs(miscDef);

export function miscRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: miscVerbs, tag: "misc", basePath: "/api/v1/misc", idParam: "item_id", noun: ["misc item", "misc items"],
    item: MiscItem, create: MiscCreate, patch: MiscPatch, query: MiscListQuery,
    deleteDescription: "Unlinks the item from every service that uses it (its service_misc links are removed with it, and recorded in the audit log).",
    filters: (q) => [eqFilter(miscItems.kind, q.kind), tagFilter(miscItems.tags, q.tag)],
  });
}
