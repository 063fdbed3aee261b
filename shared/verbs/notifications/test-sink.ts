// POST /notifications/sinks/{id}/test. The sending happens in the sidecar (email needs Node's sockets,
// which the functions on the edge do not have), so the test is queued as a delivery of a
// `notification.test` alert to this one sink, routes aside: it works the same on every deployment and
// shows its outcome and attempts in GET /notifications/deliveries. What can be told without sending (a
// sink missing its URL or token) answers `{ok: false, error}` at once, 200 like the original.
import { notificationAlerts, notificationDeliveries } from "../../db/schema/index.ts";
import { isNotifierType, NOTIFIER_FIELDS } from "../../domain/notifications/notifiers/index.ts";
import { defineVerb } from "../verb.ts";
import { NOTIFICATIONS_CHANNEL } from "./enqueue-alert.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";
import { openSinkSecrets, requireSink } from "./sink-secrets.ts";
import { sql } from "drizzle-orm";
import { vaultOf } from "../verb-context.ts";

export interface TestAnswer {
  ok: boolean;
  error: string | null;
  delivery_id: number | null;
  state: string | null;
}

export const TEST_ALERT_KIND = "notification.test";

export const testSink = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { id, maxAttempts }: { id: number; maxAttempts: number }): Promise<TestAnswer> => {
    const vault = vaultOf(s.ctx);
    const sink = await requireSink(s.tx, id);
    const refuse = (error: string): TestAnswer => ({ ok: false, error, delivery_id: null, state: null });
    if (!isNotifierType(sink.provider_type)) return refuse(`Unknown provider type: ${sink.provider_type}`);
    const secrets = await openSinkSecrets(vault, sink).catch(() => null);
    if (!secrets) return refuse("The sink's secrets cannot be opened with this server's vault key.");
    const fields = NOTIFIER_FIELDS[sink.provider_type];
    const present = (key: string) => (fields[key]?.secret ? secrets[key] : sink.provider_config[key]) != null;
    for (const [key, field] of Object.entries(fields)) {
      const required = field.required || (field.requiredUnless !== undefined && !present(field.requiredUnless));
      if (required && !present(key)) return refuse(`${key} not configured`);
    }
    const [alert] = await s.tx
      .insert(notificationAlerts)
      .values({
        kind: TEST_ALERT_KIND,
        severity: "info",
        title: "Test notification",
        body: `A test of the notification sink "${sink.name}".`,
        detail: { sink_id: sink.id },
        occurred_at: s.now,
        state: "dispatched",
        test_sink_id: sink.id,
        dispatched_at: s.now,
      })
      .returning({ id: notificationAlerts.id });
    const [delivery] = await s.tx
      .insert(notificationDeliveries)
      .values({
        alert_id: alert!.id,
        sink_id: sink.id,
        max_attempts: maxAttempts,
        next_attempt_at: s.now,
        created_at: s.now,
        updated_at: s.now,
      })
      .returning({ id: notificationDeliveries.id, state: notificationDeliveries.state });
    await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ delivery_id: delivery!.id })})`);
    s.audit({
      action: "notification_sink.test",
      category: "notifications",
      entity_type: "notification_sink",
      entity_id: sink.id,
      diff: { delivery_id: delivery!.id },
    });
    return { ok: true, error: null, delivery_id: delivery!.id, state: delivery!.state };
  },
);
