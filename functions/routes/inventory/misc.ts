// [misc] /misc (list, create) and /misc/{item_id} (GET, PATCH, DELETE).
import type { Hono } from "hono";
import { MiscCreate, MiscItem, MiscListQuery, MiscPatch } from "../../../shared/schemas/misc.ts";
import { miscVerbs } from "../../../shared/verbs/inventory/misc/def.ts";
import type { AppEnv } from "../../deps.ts";
import { resourceRoutes } from "./resource-routes.ts";

export function miscRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: miscVerbs,
    tag: "misc",
    basePath: "/api/v1/misc",
    idParam: "item_id",
    noun: ["misc item", "misc items"],
    bulk: { tags: true },
    item: MiscItem,
    create: MiscCreate,
    patch: MiscPatch,
    query: MiscListQuery,
    deleteDescription:
      "Unlinks the item from every service that uses it (its service_misc links are removed with it, and recorded in the audit log).",
  });
}
