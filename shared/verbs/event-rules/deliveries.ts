// GET /event-rules/deliveries and POST .../{id}/replay: the event rules' deliveries, with their attempts,
// and the replay of a delivered or dead one, through the alerts' own machinery (../notifications/deliveries.ts).
import { eq, inArray, sql } from "drizzle-orm";
import { notificationDeliveries, notificationSinks } from "../../db/schema/index.ts";
import type { Db } from "../../db/database.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type { EventDeliveryShape } from "../../schemas/event-rules.ts";
import { attemptsOf, progressOf, replayRow } from "../notifications/deliveries.ts";
import { ADMIN_NOTIFICATIONS } from "../notifications/scopes.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { defineSnapshotRead, defineVerb } from "../verb.ts";

type Row = typeof notificationDeliveries.$inferSelect;
const ofEvents = sql`${notificationDeliveries.event} is not null`;

async function present(db: Db, rows: Row[]): Promise<EventDeliveryShape[]> {
  if (rows.length === 0) return [];
  const [sinks, attempts] = await Promise.all([
    db
      .select({ id: notificationSinks.id, name: notificationSinks.name })
      .from(notificationSinks)
      .where(inArray(notificationSinks.id, [...new Set(rows.map((r) => r.sink_id!))])),
    attemptsOf(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  const sinkName = new Map(sinks.map((k) => [k.id, k.name]));
  return rows.map((r) => ({
    id: r.id,
    rule_id: r.event_rule_id,
    sink_id: r.sink_id!,
    sink_name: sinkName.get(r.sink_id!) ?? null,
    ...progressOf(r),
    event: r.event!,
    attempts: attempts.get(r.id) ?? [],
  }));
}

export interface EventDeliveryListInput extends ListParams {
  state?: string | undefined;
  rule_id?: number | undefined;
  sink_id?: number | undefined;
}

const SPEC = {
  table: notificationDeliveries,
  id: notificationDeliveries.id,
  sortable: { created_at: notificationDeliveries.created_at, id: notificationDeliveries.id, state: notificationDeliveries.state },
  search: [notificationDeliveries.last_error],
};

export const listEventDeliveries = defineSnapshotRead<EventDeliveryListInput, ListPage<EventDeliveryShape>>(
  { scope: ADMIN_NOTIFICATIONS },
  (ctx, q) =>
    listPage<Row, EventDeliveryShape>(
      ctx.db,
      SPEC,
      q,
      [
        ofEvents,
        q.state ? eq(notificationDeliveries.state, q.state) : undefined,
        q.rule_id !== undefined ? eq(notificationDeliveries.event_rule_id, q.rule_id) : undefined,
        q.sink_id !== undefined ? eq(notificationDeliveries.sink_id, q.sink_id) : undefined,
      ],
      (rows) => present(ctx.db, rows),
    ),
);

export const replayEventDelivery = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { id, maxAttempts }: { id: number; maxAttempts: number }): Promise<EventDeliveryShape> =>
    (await present(s.tx, [await replayRow(s, id, maxAttempts, ofEvents)]))[0]!,
);
