// Provider config reads: a provider's configs (by id) and one of them.
import { and, asc, eq } from "drizzle-orm";
import { integrationConfigs } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { Db } from "../../../db/database.ts";
import { defineRead } from "../../verb.ts";
import { READ_INTEGRATIONS } from "../scopes.ts";
import type { ConfigRow, Provider } from "./provider-config.ts";
import { NOT_FOUND } from "./write-configs.ts";

export async function findConfig(db: Db, provider: Provider, id: number, notFound = NOT_FOUND): Promise<ConfigRow> {
  const [row] = await db
    .select()
    .from(integrationConfigs)
    .where(and(eq(integrationConfigs.id, id), eq(integrationConfigs.type, provider)));
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", notFound);
  return row;
}

export const listConfigs = defineRead({ scope: READ_INTEGRATIONS }, (ctx, { provider }: { provider: Provider }) =>
  ctx.db.select().from(integrationConfigs).where(eq(integrationConfigs.type, provider)).orderBy(asc(integrationConfigs.id)),
);

export const getConfig = defineRead(
  { scope: READ_INTEGRATIONS },
  (ctx, { provider, id, notFound }: { provider: Provider; id: number; notFound?: string }) => findConfig(ctx.db, provider, id, notFound),
);
