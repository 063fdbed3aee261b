// [storage] /storage (list, create) and /storage/{storage_id} (GET, PATCH, DELETE).
import type { Hono } from "hono";
import { Storage, StorageCreate, StorageListQuery, StoragePatch } from "../../../shared/schemas/storage.ts";
import { storageVerbs } from "../../../shared/verbs/inventory/storage/def.ts";
import type { AppEnv } from "../../deps.ts";
import { resourceRoutes } from "./resource-routes.ts";

export function storageRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: storageVerbs,
    tag: "storage",
    basePath: "/api/v1/storage",
    idParam: "storage_id",
    noun: ["storage item", "storage items"],
    bulk: { tags: true },
    item: Storage,
    create: StorageCreate,
    patch: StoragePatch,
    query: StorageListQuery,
    deleteDescription:
      "Unlinks the item from every service that uses it (its service_storage links are removed with it, and recorded in the audit log).",
  });
}
