// Alerts enqueued as the monitor runner does, through the agreed hand-off (enqueueAlerts) in one verb's
// transaction, in order: the notification and alerts tests' one way to raise alerts.
import { type AlertInput, enqueueAlerts as enqueueInOrder } from "../../shared/verbs/notifications/enqueue-alert.ts";
import { defineVerb } from "../../shared/verbs/verb.ts";
import type { VerbContext } from "../../shared/verbs/verb-context.ts";

const enqueueVerb = defineVerb({ scope: "public" }, (s, alerts: AlertInput[]) => enqueueInOrder(s, alerts));

/** Enqueues `alerts` (each a monitor.down "Server down" unless it says otherwise), the i-th occurring at `at(i)`. */
export async function enqueueAlerts(ctx: VerbContext, alerts: Partial<AlertInput>[], at: (i: number) => Date): Promise<void> {
  const full = alerts.map((x, i) => ({
    kind: "monitor.down",
    severity: "critical" as const,
    monitor_id: null,
    target_type: null,
    target_id: null,
    title: "Server down",
    body: "The server did not answer",
    detail: {},
    occurred_at: at(i),
    ...x,
  }));
  await enqueueVerb({ ctx, input: full });
}
