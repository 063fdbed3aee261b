// An alert's deliveries counted by outcome (the DeliverySummary of shared/schemas/alerts.ts), from
// per-state counts: delivered, dead, and everything still on its way as pending.
import type * as v from "valibot";
import type { DeliverySummary } from "../../schemas/alerts.ts";

export function deliverySummary(counts: readonly { state: string; n: number }[]): v.InferInput<typeof DeliverySummary> {
  const summary = { total: 0, delivered: 0, pending: 0, dead: 0 };
  for (const d of counts) {
    summary.total += d.n;
    if (d.state === "delivered") summary.delivered += d.n;
    else if (d.state === "dead") summary.dead += d.n;
    else summary.pending += d.n;
  }
  return summary;
}
