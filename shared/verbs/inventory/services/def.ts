// Services. The slug is derived from the name when absent (unique with -2, -3 ...); references are
// checked with clear 422s. Deleting a service takes its dependency edges (both directions) and its
// storage, misc and external links with it (they are links, not things); a `service.unlink` audit
// entry in the same transaction lists them and counts the removed edges.
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type * as v from "valibot";
import {
  environments,
  serviceDependencies,
  serviceExternalDependencies,
  serviceMisc,
  services,
  serviceStorage,
} from "../../../db/schema/index.ts";
import type { ServiceListQuery } from "../../../schemas/services.ts";
import { eqFilter, tagFilter } from "../../resources/filters.ts";
import { iso, namesById } from "../../resources/present.ts";
import { defineResource } from "../../resources/resource-def.ts";
import { resourceVerbs } from "../../resources/resource-verbs.ts";
import { checkServiceReferences } from "./references.ts";
import { requireFreeSlug, slugify, uniqueSlug } from "./slug.ts";

type Row = typeof services.$inferSelect;

const serviceDef = defineResource({
  label: "Service",
  entityType: "service",
  scopeResource: "services",
  table: services,
  columns: { id: services.id, version: services.version, tags: services.tags },
  channels: ["inventory", "topology"],
  list: {
    sortable: {
      name: services.name,
      slug: services.slug,
      status: services.status,
      environment: services.environment,
      ip_address: services.ip_address,
      created_at: services.created_at,
      updated_at: services.updated_at,
    },
    search: [services.name, services.slug, services.ip_address, services.url, services.environment],
  },
  filters: (q: v.InferOutput<typeof ServiceListQuery>) => [
    eqFilter(services.status, q.status),
    eqFilter(services.environment, q.environment),
    eqFilter(services.environment_id, q.environment_id),
    eqFilter(services.hardware_id, q.hardware_id),
    eqFilter(services.compute_id, q.compute_id),
    eqFilter(services.category_id, q.category_id),
    tagFilter(services.tags, q.tag),
  ],
  async toValues(s, input, existing) {
    const values = { ...input };
    if (values.ip_address === "") values.ip_address = null;
    await checkServiceReferences(s.tx, { ...existing, ...values }, new Set(Object.keys(values)));
    if (typeof values.slug === "string") await requireFreeSlug(s.tx, values.slug, existing?.id);
    else if (!existing) values.slug = await uniqueSlug(s.tx, slugify(String(values.name)));
    return values;
  },
  // A slug made from the name reads the slugs taken, those of the same import's earlier rows too.
  writesAlone: (input, existing) => !existing && typeof input.slug !== "string",
  async beforeDelete(s, row) {
    // The foreign keys would cascade; deleting here first records what went, and how many edges, in the audit trail.
    const gone = (table: PgTable, column: PgColumn) =>
      s.tx.delete(table).where(eq(column, row.id)).returning() as Promise<Record<string, unknown>[]>;
    const dependencies = await gone(serviceDependencies, serviceDependencies.service_id);
    const dependents = await gone(serviceDependencies, serviceDependencies.depends_on_id);
    const storageLinks = await gone(serviceStorage, serviceStorage.service_id);
    const miscLinks = await gone(serviceMisc, serviceMisc.service_id);
    const externalLinks = await gone(serviceExternalDependencies, serviceExternalDependencies.service_id);
    const removed = {
      dependency_edges: dependencies.length + dependents.length,
      dependencies: dependencies.length,
      dependents: dependents.length,
      storage_links: storageLinks.length,
      misc_links: miscLinks.length,
      external_links: externalLinks.length,
    };
    if (Object.values(removed).every((n) => n === 0)) return;
    const before = {
      depends_on_ids: dependencies.map((d) => d.depends_on_id),
      dependent_ids: dependents.map((d) => d.service_id),
      storage: storageLinks,
      misc: miscLinks,
      external_dependencies: externalLinks,
    };
    s.audit({ action: "service.unlink", category: "inventory", entity_type: "service", entity_id: row.id, diff: { before, removed } });
  },
  async present(db, rows) {
    const envs = await namesById(
      db,
      environments,
      environments.id,
      environments.name,
      rows.map((r) => r.environment_id),
    );
    return rows.map((r) => presentService(r, envs));
  },
});

export const serviceVerbs = resourceVerbs(serviceDef);

export function presentService(r: Row, envs: Map<number, string>) {
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    environment: r.environment,
    environment_id: r.environment_id,
    environment_name: r.environment_id == null ? null : (envs.get(r.environment_id) ?? null),
    status: r.status,
    hardware_id: r.hardware_id,
    compute_id: r.compute_id,
    category_id: r.category_id,
    url: r.url,
    ip_address: r.ip_address,
    ports: r.ports.map((p) => ({ ip: p.ip ?? null, port: p.port, protocol: p.protocol ?? "tcp", label: p.label ?? null })),
    description: r.description,
    tags: r.tags,
    version: r.version,
    custom_fields: r.custom_fields,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}
