// Monitoring integration reads: the registry, the list envelope (docs/architecture.md, API contracts, default
// sort created_at as the reference orders them) and one integration, each with its monitor_count.
import { eq, sql } from "drizzle-orm";
import { integrations } from "../../../db/schema/index.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import { type ListPage, type ListSpec, listPage } from "../../resources/list.ts";
import { defineRead } from "../../verb.ts";
import { READ_INTEGRATIONS } from "../scopes.ts";
import {
  findIntegration,
  type IntegrationRow,
  type IntegrationShape,
  presentIntegration,
  presentIntegrations,
  monitorCounts,
} from "./integration-row.ts";
import { REGISTRY } from "./registry.ts";

const SPEC: ListSpec = {
  table: integrations,
  id: integrations.id,
  sortable: { created_at: integrations.created_at, name: sql`lower(${integrations.name})`, type: integrations.type, id: integrations.id },
  search: [integrations.name, integrations.base_url],
};

export const integrationRegistry = defineRead({ scope: READ_INTEGRATIONS }, async () => REGISTRY);

export const listIntegrations = defineRead<ListParams & { type?: string | undefined }, ListPage<IntegrationShape>>(
  { scope: READ_INTEGRATIONS },
  (ctx, input) =>
    listPage<IntegrationRow, IntegrationShape>(ctx.db, SPEC, input, [input.type ? eq(integrations.type, input.type) : undefined], (rows) =>
      presentIntegrations(ctx.db, rows),
    ),
);

export const getIntegration = defineRead({ scope: READ_INTEGRATIONS }, async (ctx, { id }: { id: number }) => {
  const row = await findIntegration(ctx.db, id);
  return presentIntegration(row, (await monitorCounts(ctx.db, [id])).get(id) ?? 0);
});
