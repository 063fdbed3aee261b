// A service's links to storage items, misc items and external nodes: the same three verbs for each
// (list, add, remove). Adding checks the service (404), the target (422 naming the field) and a
// duplicate (409); every write is audited and announced on the `topology` channel.
import { and, eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  externalNodes, miscItems, serviceExternalDependencies, serviceMisc, serviceStorage, storage,
} from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { VerbContext } from "../../verb-context.ts";
import { requireScope, runInTransaction } from "../../verb.ts";
import { missingReference } from "./references.ts";
import { requireService } from "./require-service.ts";

interface LinkKind {
  /** Audit actions `service.<name>.link|unlink`. */
  name: string;
  /** Event entity and table name. */
  entity: string;
  table: PgTable;
  serviceColumn: PgColumn;
  targetColumn: PgColumn;
  /** The body field naming the target. */
  field: string;
  /** What DELETE .../{key} names: the target's id, or the relation's own id. */
  keyColumn: PgColumn;
  /** For 404s: "Storage link 7 of service 3 was not found." */
  keyLabel: string;
  target: { table: PgTable; id: PgColumn; name: PgColumn; kind: PgColumn; label: string };
}

type LinkRow = Record<string, unknown>;

function linkVerbs(k: LinkKind) {
  const targetId = (input: LinkRow) => input[k.field] as number;
  const whereLink = (serviceId: number, column: PgColumn, value: number) => and(eq(k.serviceColumn, serviceId), eq(column, value));
  return {
    async list({ ctx, serviceId }: { ctx: VerbContext; serviceId: number }): Promise<LinkRow[]> {
      requireScope(ctx, "read:services");
      await requireService(ctx.db, serviceId);
      const rows = (await ctx.db
        .select({ link: k.table, name: k.target.name, kind: k.target.kind })
        .from(k.table)
        .innerJoin(k.target.table, eq(k.target.id, k.targetColumn))
        .where(eq(k.serviceColumn, serviceId))
        .orderBy(k.target.name, k.targetColumn)) as { link: LinkRow; name: string; kind: string | null }[];
      return rows.map((r) => ({ ...r.link, name: r.name, kind: r.kind }));
    },

    async add({ ctx, serviceId, input }: { ctx: VerbContext; serviceId: number; input: LinkRow }): Promise<LinkRow> {
      requireScope(ctx, "write:services");
      return runInTransaction(ctx, {}, async (s) => {
        const service = await requireService(s.tx, serviceId);
        const id = targetId(input);
        const [target] = (await s.tx.select({ name: k.target.name, kind: k.target.kind }).from(k.target.table).where(eq(k.target.id, id))) as {
          name: string;
          kind: string | null;
        }[];
        if (!target) throw ApiError.validation([missingReference(k.field, k.target.label, id)]);
        const [dup] = await s.tx.select({ n: k.targetColumn }).from(k.table).where(whereLink(serviceId, k.targetColumn, id));
        if (dup) throw ApiError.conflict(`Service ${serviceId} (${service.name}) is already linked to ${k.target.label.toLowerCase()} ${id} (${target.name}).`);
        const [row] = (await s.tx.insert(k.table).values({ ...input, service_id: serviceId } as never).returning()) as LinkRow[];
        s.audit({ action: `service.${k.name}.link`, category: "inventory", entity_type: "service", entity_id: serviceId, diff: { after: row } });
        s.emit("topology", { entity: k.entity, action: "create", service_id: serviceId, [k.field]: id });
        return { ...row, name: target.name, kind: target.kind };
      });
    },

    async remove({ ctx, serviceId, key }: { ctx: VerbContext; serviceId: number; key: number }): Promise<void> {
      requireScope(ctx, "write:services");
      await runInTransaction(ctx, {}, async (s) => {
        const [row] = (await s.tx.delete(k.table).where(whereLink(serviceId, k.keyColumn, key)).returning()) as LinkRow[];
        if (!row) {
          await requireService(s.tx, serviceId);
          throw new ApiError("RESOURCE_NOT_FOUND", `${k.keyLabel} ${key} of service ${serviceId} was not found.`);
        }
        s.audit({ action: `service.${k.name}.unlink`, category: "inventory", entity_type: "service", entity_id: serviceId, diff: { before: row } });
        s.emit("topology", { entity: k.entity, action: "delete", service_id: serviceId, [k.field]: row[k.field] });
      });
    },
  };
}

export const storageLinks = linkVerbs({
  name: "storage", entity: "service_storage", table: serviceStorage, serviceColumn: serviceStorage.service_id,
  targetColumn: serviceStorage.storage_id, field: "storage_id", keyColumn: serviceStorage.storage_id, keyLabel: "Storage link",
  target: { table: storage, id: storage.id, name: storage.name, kind: storage.kind, label: "Storage item" },
});

export const miscLinks = linkVerbs({
  name: "misc", entity: "service_misc", table: serviceMisc, serviceColumn: serviceMisc.service_id,
  targetColumn: serviceMisc.misc_id, field: "misc_id", keyColumn: serviceMisc.misc_id, keyLabel: "Misc link",
  target: { table: miscItems, id: miscItems.id, name: miscItems.name, kind: miscItems.kind, label: "Misc item" },
});

export const externalDependencies = linkVerbs({
  name: "external_dependency", entity: "service_external_dependency", table: serviceExternalDependencies,
  serviceColumn: serviceExternalDependencies.service_id, targetColumn: serviceExternalDependencies.external_node_id,
  field: "external_node_id", keyColumn: serviceExternalDependencies.id, keyLabel: "External dependency",
  target: { table: externalNodes, id: externalNodes.id, name: externalNodes.name, kind: externalNodes.kind, label: "External node" },
});
