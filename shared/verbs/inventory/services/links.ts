// A service's links to storage items, misc items and external nodes: the same three verbs for each
// (list, add, remove). Adding checks the service (404), the target (422 naming the field) and a
// duplicate (409); every write is audited and announced on the `topology` channel.
import { and, eq, type InferInsertModel, type InferSelectModel } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { externalNodes, miscItems, serviceExternalDependencies, serviceMisc, serviceStorage, storage } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import { defineRead, defineVerb, type Verb } from "../../verb.ts";
import { missingReference } from "./references.ts";
import { requireService } from "./require-service.ts";

interface LinkKind<T extends PgTable, F extends string, B extends Record<F, number>> {
  /** Audit actions `service.<name>.link|unlink`. */
  name: string;
  /** Event entity and table name. */
  entity: string;
  table: T;
  serviceColumn: PgColumn;
  targetColumn: PgColumn;
  /** The body field naming the target. */
  field: F;
  /** What DELETE .../{key} names: the target's id, or the relation's own id. */
  keyColumn: PgColumn;
  /** For 404s: "Storage link 7 of service 3 was not found." */
  keyLabel: string;
  target: { table: PgTable; id: PgColumn; name: PgColumn; kind: PgColumn; label: string };
  /** The link row a body makes for a service. */
  row(serviceId: number, body: B): InferInsertModel<T>;
}

interface Target {
  name: string;
  kind: string | null;
}

export interface LinkAdd<B> {
  serviceId: number;
  link: B;
}

/** The verbs of one kind of link: B is what a body gives, L what a link reads as. */
export interface LinkVerbs<B, L> {
  list: Verb<{ serviceId: number }, L[]>;
  add: Verb<LinkAdd<B>, L>;
  remove: Verb<{ serviceId: number; key: number }, void>;
}

function linkVerbs<T extends PgTable, const F extends string, B extends Record<F, number>>(
  k: LinkKind<T, F, B>,
): LinkVerbs<B, InferSelectModel<T> & Target> {
  type Link = InferSelectModel<T> & Target;
  const whereLink = (serviceId: number, column: PgColumn, value: number) => and(eq(k.serviceColumn, serviceId), eq(column, value));
  // drizzle types the rows of a table given as a type parameter loosely; they are the link table's rows.
  const links = (rows: unknown) => rows as InferSelectModel<T>[];
  return {
    list: defineRead({ scope: "read:services" }, async (ctx, { serviceId }: { serviceId: number }): Promise<Link[]> => {
      await requireService(ctx.db, serviceId);
      const rows = await ctx.db
        .select({ link: k.table as PgTable, name: k.target.name, kind: k.target.kind })
        .from(k.table as PgTable)
        .innerJoin(k.target.table, eq(k.target.id, k.targetColumn))
        .where(eq(k.serviceColumn, serviceId))
        .orderBy(k.target.name, k.targetColumn);
      return rows.map((r) => ({ ...links([r.link])[0]!, name: r.name as string, kind: r.kind as string | null }));
    }),

    add: defineVerb({ scope: "write:services" }, async (s, { serviceId, link }: LinkAdd<B>): Promise<Link> => {
      const service = await requireService(s.tx, serviceId);
      const id = link[k.field];
      const [target] = (await s.tx
        .select({ name: k.target.name, kind: k.target.kind })
        .from(k.target.table)
        .where(eq(k.target.id, id))) as Target[];
      if (!target) throw ApiError.validation([missingReference(k.field, k.target.label, id)]);
      const [dup] = await s.tx
        .select({ n: k.targetColumn })
        .from(k.table as PgTable)
        .where(whereLink(serviceId, k.targetColumn, id));
      if (dup)
        throw ApiError.conflict(
          `Service ${serviceId} (${service.name}) is already linked to ${k.target.label.toLowerCase()} ${id} (${target.name}).`,
        );
      const [row] = links(await s.tx.insert(k.table).values(k.row(serviceId, link)).returning());
      s.audit({
        action: `service.${k.name}.link`,
        category: "inventory",
        entity_type: "service",
        entity_id: serviceId,
        diff: { after: row },
      });
      s.emit("topology", { entity: k.entity, action: "create", service_id: serviceId, [k.field]: id });
      return { ...row!, name: target.name, kind: target.kind };
    }),

    remove: defineVerb({ scope: "write:services" }, async (s, { serviceId, key }: { serviceId: number; key: number }) => {
      const [row] = links(
        await s.tx
          .delete(k.table)
          .where(whereLink(serviceId, k.keyColumn, key))
          .returning(),
      );
      if (!row) {
        await requireService(s.tx, serviceId);
        throw new ApiError("RESOURCE_NOT_FOUND", `${k.keyLabel} ${key} of service ${serviceId} was not found.`);
      }
      s.audit({
        action: `service.${k.name}.unlink`,
        category: "inventory",
        entity_type: "service",
        entity_id: serviceId,
        diff: { before: row },
      });
      s.emit("topology", {
        entity: k.entity,
        action: "delete",
        service_id: serviceId,
        [k.field]: (row as Record<string, unknown>)[k.field],
      });
    }),
  };
}

export const storageLinks = linkVerbs({
  name: "storage",
  entity: "service_storage",
  table: serviceStorage,
  serviceColumn: serviceStorage.service_id,
  targetColumn: serviceStorage.storage_id,
  field: "storage_id",
  keyColumn: serviceStorage.storage_id,
  keyLabel: "Storage link",
  target: { table: storage, id: storage.id, name: storage.name, kind: storage.kind, label: "Storage item" },
  row: (service_id, l: { storage_id: number; mount_path?: string | null | undefined }) => ({
    service_id,
    storage_id: l.storage_id,
    mount_path: l.mount_path,
  }),
});

export const miscLinks = linkVerbs({
  name: "misc",
  entity: "service_misc",
  table: serviceMisc,
  serviceColumn: serviceMisc.service_id,
  targetColumn: serviceMisc.misc_id,
  field: "misc_id",
  keyColumn: serviceMisc.misc_id,
  keyLabel: "Misc link",
  target: { table: miscItems, id: miscItems.id, name: miscItems.name, kind: miscItems.kind, label: "Misc item" },
  row: (service_id, l: { misc_id: number }) => ({ service_id, misc_id: l.misc_id }),
});

export const externalDependencies = linkVerbs({
  name: "external_dependency",
  entity: "service_external_dependency",
  table: serviceExternalDependencies,
  serviceColumn: serviceExternalDependencies.service_id,
  targetColumn: serviceExternalDependencies.external_node_id,
  field: "external_node_id",
  keyColumn: serviceExternalDependencies.id,
  keyLabel: "External dependency",
  target: { table: externalNodes, id: externalNodes.id, name: externalNodes.name, kind: externalNodes.kind, label: "External node" },
  row: (service_id, l: { external_node_id: number; description?: string | null | undefined }) => ({
    service_id,
    external_node_id: l.external_node_id,
    description: l.description,
  }),
});
