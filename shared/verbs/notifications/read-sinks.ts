// GET /notifications/sinks (the list envelope, docs/architecture.md, API contracts) and one sink, secrets masked.
import { eq } from "drizzle-orm";
import { notificationSinks } from "../../db/schema/index.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { SinkShape } from "../../schemas/notifications.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { defineRead } from "../verb.ts";
import { presentSink } from "./present-sink.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";
import type { SinkRow } from "./sink-secrets.ts";
import { vaultOf } from "../verb-context.ts";

const SPEC = {
  table: notificationSinks,
  id: notificationSinks.id,
  sortable: {
    name: notificationSinks.name,
    provider_type: notificationSinks.provider_type,
    created_at: notificationSinks.created_at,
    id: notificationSinks.id,
  },
  search: [notificationSinks.name],
};

export const listSinks = defineRead<{ query: ListParams & { provider_type?: string | undefined } }, ListPage<SinkShape>>(
  { scope: ADMIN_NOTIFICATIONS },
  (ctx, { query }) =>
    listPage<SinkRow, SinkShape>(
      ctx.db,
      SPEC,
      query,
      [query.provider_type ? eq(notificationSinks.provider_type, query.provider_type) : undefined],
      (rows) => Promise.all(rows.map((r) => presentSink(vaultOf(ctx), r))),
    ),
);
