// [storage] /storage (list, create) and /storage/{storage_id} (GET, PATCH, DELETE).
import type { Hono } from "hono";
import { storage } from "../../../shared/db/schema/index.ts";
import { Storage, StorageCreate, StorageListQuery, StoragePatch } from "../../../shared/schemas/storage.ts";
import { eqFilter, tagFilter } from "../../../shared/services/inventory/filters.ts";
import { resourceVerbs } from "../../../shared/services/inventory/resource.ts";
import { storageDef } from "../../../shared/services/inventory/storage/def.ts";
import type { AppEnv } from "../../deps.ts";
import { resourceRoutes } from "./resource-routes.ts";

export const storageVerbs = resourceVerbs(storageDef);

export function storageRoutes(app: Hono<AppEnv>): void {
  resourceRoutes(app, {
    verbs: storageVerbs, tag: "storage", basePath: "/api/v1/storage", idParam: "storage_id", noun: ["storage item", "storage items"],
    item: Storage, create: StorageCreate, patch: StoragePatch, query: StorageListQuery,
    deleteDescription: "Unlinks the item from every service that uses it (its service_storage links are removed with it, and recorded in the audit log).",
    filters: (q) => [eqFilter(storage.kind, q.kind), eqFilter(storage.hardware_id, q.hardware_id), tagFilter(storage.tags, q.tag)],
  });
}
