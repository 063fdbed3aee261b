// POST /notifications/sinks/{id}/test, first half. The sending happens in the sidecar (email needs Node's
// sockets, which the functions on the edge do not have), so the test is queued as a delivery of a
// `notification.test` alert to this one sink, routes aside: it works the same on every deployment and
// shows in GET /notifications/deliveries. The route then waits for its attempt (test-answer.ts,
// docs/adr/0449-sink-test-answers.md). What can be told without sending (a sink missing its URL or
// token) answers `{ok: false, error}` at once, 200 like the original.
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
  /** The receiver's answer to the test's attempt (null: none yet, or the test was refused before queueing). */
  http_status: number | null;
  duration_ms: number | null;
  attempt_outcome: "delivered" | "failed" | "timeout" | null;
}

/** A test is sent once: its answer is final, and a receiver that refused it is not sent it again later. */
export const TEST_MAX_ATTEMPTS = 1;

export const TEST_ALERT_KIND = "notification.test";

export const testSink = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, { id }: { id: number }): Promise<TestAnswer> => {
  const vault = vaultOf(s.ctx);
  const sink = await requireSink(s.tx, id);
  const answer = { delivery_id: null, state: null, http_status: null, duration_ms: null, attempt_outcome: null };
  const refuse = (error: string): TestAnswer => ({ ok: false, error, ...answer });
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
      max_attempts: TEST_MAX_ATTEMPTS,
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
  // Queued, not yet sent: ok only once the receiver accepts it (test-answer.ts).
  return { ...answer, ok: false, error: null, delivery_id: delivery!.id, state: delivery!.state };
});
