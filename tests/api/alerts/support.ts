// Shared set-up of the alerts tests: the app with signed-in actors, and alerts enqueued through the agreed
// hand-off (enqueueAlert) in a verb's transaction, as the monitor runner does.
import type { AlertInput } from "../../../shared/verbs/notifications/enqueue-alert.ts";
import { systemContext, type VerbContext } from "../../../shared/verbs/verb-context.ts";
import type { Actors } from "../../helpers/actors.ts";
import { enqueueAlerts } from "../../helpers/enqueue-alerts.ts";

export const systemOf = (a: Actors): VerbContext =>
  systemContext({
    db: a.t.runtime.database.db,
    clock: a.t.runtime.deps.clock,
    random: a.t.runtime.deps.random,
    vault: a.t.runtime.deps.vault,
  });

/** Enqueues alerts (a monitor.down by default) one after the other, each a millisecond later; answers their ids. */
export async function enqueue(a: Actors, ...alerts: Partial<AlertInput>[]): Promise<number[]> {
  const base = Date.now();
  const [{ n }] = (await a.t.sql`select coalesce(max(id), 0)::int as n from notification_alerts`) as unknown as [{ n: number }];
  await enqueueAlerts(systemOf(a), alerts, (i) => new Date(base + i));
  const rows = await a.t.sql<{ id: number }[]>`select id::int as id from notification_alerts where id > ${n} order by id`;
  return rows.map((r) => r.id);
}
