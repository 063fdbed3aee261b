// An external node's links: the networks it reaches (external_node_networks, managed here) and the
// services that depend on it (service_external_dependencies, read here; written from the service side).
import { and, eq } from "drizzle-orm";
import { externalNodeNetworks, externalNodes, networks, serviceExternalDependencies, services } from "../../../db/schema/index.ts";
import type { Db } from "../../../db/database.ts";
import { ApiError } from "../../../errors.ts";
import { requireRow } from "../../resources/row-checks.ts";
import { defineRead, defineVerb } from "../../verb.ts";

const requireNode = (db: Db, id: number) => requireRow(db, externalNodes, externalNodes.id, id, "External node");

const networkLinks = (db: Db) =>
  db
    .select({
      id: externalNodeNetworks.id,
      external_node_id: externalNodeNetworks.external_node_id,
      network_id: externalNodeNetworks.network_id,
      network_name: networks.name,
      cidr: networks.cidr,
      link_type: externalNodeNetworks.link_type,
    })
    .from(externalNodeNetworks)
    .innerJoin(networks, eq(networks.id, externalNodeNetworks.network_id));

export const externalNodeNetworkLinks = defineRead({ scope: "read:external" }, async (ctx, { nodeId }: { nodeId: number }) => {
  await requireNode(ctx.db, nodeId);
  return networkLinks(ctx.db).where(eq(externalNodeNetworks.external_node_id, nodeId)).orderBy(networks.name, externalNodeNetworks.id);
});

export interface NetworkLinkAdd {
  nodeId: number;
  link: { network_id: number; link_type?: string | null | undefined };
}

export const linkExternalNodeNetwork = defineVerb({ scope: "write:external" }, async (s, { nodeId, link: input }: NetworkLinkAdd) => {
  await requireNode(s.tx, nodeId);
  await requireRow(s.tx, networks, networks.id, input.network_id, "Network", "network_id");
  const [dup] = await s.tx
    .select({ id: externalNodeNetworks.id })
    .from(externalNodeNetworks)
    .where(and(eq(externalNodeNetworks.external_node_id, nodeId), eq(externalNodeNetworks.network_id, input.network_id)));
  if (dup) throw ApiError.conflict(`External node ${nodeId} is already linked to network ${input.network_id} (link ${dup.id}).`);
  const [row] = await s.tx
    .insert(externalNodeNetworks)
    .values({ external_node_id: nodeId, network_id: input.network_id, link_type: input.link_type ?? null })
    .returning();
  s.audit({
    action: "external_node.network.create",
    category: "inventory",
    entity_type: "external_node_network",
    entity_id: row!.id,
    diff: { after: row },
  });
  s.emit("topology", { entity: "external_node_network", action: "create", id: row!.id });
  const [link] = await networkLinks(s.tx).where(eq(externalNodeNetworks.id, row!.id));
  return link!;
});

export const unlinkExternalNodeNetwork = defineVerb({ scope: "write:external" }, async (s, { relationId }: { relationId: number }) => {
  const [row] = await s.tx.delete(externalNodeNetworks).where(eq(externalNodeNetworks.id, relationId)).returning();
  if (!row) throw ApiError.notFound("External node network link", relationId);
  s.audit({
    action: "external_node.network.delete",
    category: "inventory",
    entity_type: "external_node_network",
    entity_id: relationId,
    diff: { before: row },
  });
  s.emit("topology", { entity: "external_node_network", action: "delete", id: relationId });
});

export const externalNodeServices = defineRead({ scope: "read:external" }, async (ctx, { nodeId }: { nodeId: number }) => {
  await requireNode(ctx.db, nodeId);
  return ctx.db
    .select({
      id: services.id,
      name: services.name,
      slug: services.slug,
      status: services.status,
      relation_id: serviceExternalDependencies.id,
      description: serviceExternalDependencies.description,
    })
    .from(serviceExternalDependencies)
    .innerJoin(services, eq(services.id, serviceExternalDependencies.service_id))
    .where(eq(serviceExternalDependencies.external_node_id, nodeId))
    .orderBy(services.name, services.id);
});
