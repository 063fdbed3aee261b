// The jobs of claimed event deliveries (docs/adr/0488-inventory-event-rules.md): delivery-work.ts claims
// them with the alerts' (they belong to a webhook sink, under its concurrency and `enabled`), and each is
// sent as the body queued in the transaction of the change, signed by the sink's secret when it is sent.
import type { notificationSinks } from "../../db/schema/index.ts";
import type { DeliveryJob } from "../notifications/delivery-job.ts";

export type SinkRow = typeof notificationSinks.$inferSelect;

export const SECRETS_UNOPENED = "The sink's secrets cannot be opened with this server's vault key.";

export interface EventDeliveryRow {
  id: number;
  sink_id: number;
  attempt_count: number;
  event: Record<string, unknown>;
}

/** Adds the jobs (or the reasons none can be made: a dead letter) of `claimed` to `jobs` and `failed`. */
export async function eventJobs(
  claimed: EventDeliveryRow[],
  sinks: ReadonlyMap<number, SinkRow>,
  secretsOf: (sink: SinkRow) => Promise<Record<string, string> | null>,
  jobs: DeliveryJob[],
  failed: { id: number; error: string }[],
): Promise<void> {
  for (const d of claimed) {
    const sink = sinks.get(d.sink_id);
    if (!sink) continue;
    // A sink changed to another provider since: its message would not be this body.
    if (sink.provider_type !== "webhook") {
      failed.push({
        id: d.id,
        error: `Sink ${sink.id} is no longer a webhook (${sink.provider_type}); event rules send only to webhooks.`,
      });
      continue;
    }
    const secrets = await secretsOf(sink);
    if (!secrets) {
      failed.push({ id: d.id, error: SECRETS_UNOPENED });
      continue;
    }
    const e = d.event;
    jobs.push({
      delivery_id: d.id,
      attempt: d.attempt_count + 1,
      sink: { id: sink.id, provider_type: "webhook", config: sink.provider_config, secrets },
      message: {
        // The webhook-id: the same on every attempt and replay, so a receiver can drop a duplicate.
        id: `event_${d.id}`,
        kind: `inventory.${String(e.kind)}.${String(e.event)}`,
        status: "event",
        dedup_key: `event_${d.id}`,
        links: {},
        severity: "info",
        title: `${String(e.kind)} ${String(e.id)} ${String(e.event)}`,
        body: "",
        occurred_at: String(e.timestamp),
        data: {},
        webhookBody: e,
      },
    });
  }
}
