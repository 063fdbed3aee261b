// GET /config/objects (docs/cli.md, "Configuration as code"): the ownership rows of lab files, filtered
// by kind, owner and object id. The console reads it to say on an object's page that a lab file manages
// it (an apply of that file overwrites what is changed here).
import { eq } from "drizzle-orm";
import { configObjects } from "../../db/schema/index.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { ADMIN_SCOPE } from "../transfer/scope.ts";
import { defineRead } from "../verb.ts";

type Row = typeof configObjects.$inferSelect;
export interface ConfigObjectShape {
  owner: string;
  kind: string;
  key: string;
  object_id: number;
  updated_at: string;
}

const SPEC = {
  table: configObjects,
  id: configObjects.key,
  sortable: { key: configObjects.key, owner: configObjects.owner, kind: configObjects.kind, updated_at: configObjects.updated_at },
  search: [configObjects.key, configObjects.owner],
};

export const listConfigObjects = defineRead<
  ListParams & { kind?: string | undefined; owner?: string | undefined; object_id?: number | undefined },
  ListPage<ConfigObjectShape>
>({ scope: ADMIN_SCOPE }, (ctx, query) =>
  listPage<Row, ConfigObjectShape>(
    ctx.db,
    SPEC,
    query,
    [
      query.kind !== undefined ? eq(configObjects.kind, query.kind) : undefined,
      query.owner !== undefined ? eq(configObjects.owner, query.owner) : undefined,
      query.object_id !== undefined ? eq(configObjects.object_id, query.object_id) : undefined,
    ],
    (rows) =>
      rows.map((r) => ({ owner: r.owner, kind: r.kind, key: r.key, object_id: r.object_id, updated_at: r.updated_at.toISOString() })),
  ),
);
