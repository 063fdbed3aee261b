// Digests (docs/adr/0450-quiet-hours-and-digests.md): deliveries held by a route's quiet hours wait in
// state `held` until the quiet period ends (their next_attempt_at). Then each sink gets ONE digest: an
// alert of kind `notification.digest` listing what was held with where each stands now ("3 alerts held
// during quiet hours, 2 recovered"), delivered like any other; the held deliveries become `digested`.
// A recovery held with the alert it ends is told as that alert's state, not listed on its own. Groups
// are locked with SKIP LOCKED, so two sidecars never send the same digest.
import { and, eq, inArray, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { notificationAlerts, notificationDeliveries } from "../../db/schema/index.ts";
import { alertStatusOf } from "../../domain/notifications/alert-status.ts";
import { normalizeSeverity } from "../../domain/notifications/severity.ts";
import { defineVerb } from "../verb.ts";
import { NOTIFICATIONS_CHANNEL } from "./enqueue-alert.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";

export const DIGEST_KIND = "notification.digest";
/** Lines listed in one digest; the rest are counted. */
const LISTED = 50;
/** Held deliveries taken into one digest (more wait for the next round). */
const GROUP_MAX = 1000;

type AlertRow = typeof notificationAlerts.$inferSelect;
type Standing = "recovered" | "acknowledged" | "still open" | "event";

export interface DigestOptions {
  maxAttempts: number;
  /** Digests made per call. */
  batch?: number;
}

const RANK = { info: 0, warning: 1, critical: 2 } as const;

/** The digest's title, body and severity for the alerts held for one sink (oldest first). */
export function digestMessage(
  held: AlertRow[],
  incidents: Map<number, { resolved_at: Date | null; acknowledged_at: Date | null }>,
): { title: string; body: string; severity: "info" | "warning" | "critical"; listed: { alert_id: number; standing: Standing }[] } {
  const heldIds = new Set(held.map((a) => a.id));
  // A recovery of an incident whose alert is in the digest is that alert's state, not a line of its own.
  const shown = held.filter((a) => !(alertStatusOf(a.kind) === "resolved" && a.incident_id != null && heldIds.has(a.incident_id)));
  const standing = (a: AlertRow): Standing => {
    const status = alertStatusOf(a.kind);
    if (status === "event") return "event";
    if (status === "resolved") return "recovered";
    const incident = incidents.get(a.incident_id ?? a.id);
    if (incident?.resolved_at) return "recovered";
    return incident?.acknowledged_at ? "acknowledged" : "still open";
  };
  const listed = shown.map((a) => ({ alert_id: a.id, standing: standing(a) }));
  const n = shown.length;
  const recovered = listed.filter((l) => l.standing === "recovered").length;
  const open = listed.filter((l) => l.standing === "still open").length;
  const title = `${n} alert${n === 1 ? "" : "s"} held during quiet hours${recovered > 0 ? `, ${recovered} recovered` : ""}${open > 0 ? `, ${open} still open` : ""}`;
  const lines = shown
    .slice(0, LISTED)
    .map(
      (a, i) =>
        `- [${listed[i]!.standing}] ${a.title} (${normalizeSeverity(a.severity)}, ${a.occurred_at.toISOString().slice(0, 16).replace("T", " ")} UTC)`,
    );
  if (n > LISTED) lines.push(`- and ${n - LISTED} more`);
  const severity = held.reduce<"info" | "warning" | "critical">((m, a) => {
    const s = normalizeSeverity(a.severity);
    return RANK[s] > RANK[m] ? s : m;
  }, "info");
  return { title, body: lines.join("\n"), severity, listed };
}

export const sendDigests = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, options: DigestOptions): Promise<{ digests: number; alerts: number }> => {
    const now = s.now.toISOString();
    const groups = await queryRows<{ sink_id: number; until: string }>(
      s.tx,
      sql`select sink_id, to_json(next_attempt_at) #>> '{}' as until from notification_deliveries
        where state = 'held' and next_attempt_at <= ${now}::timestamptz
        group by sink_id, next_attempt_at order by next_attempt_at, sink_id limit ${options.batch ?? 20}`,
    );
    let digests = 0;
    let alerts = 0;
    const deliveryIds: number[] = [];
    for (const g of groups) {
      const held = await queryRows<{ id: number; alert_id: number }>(
        s.tx,
        sql`select id::int as id, alert_id::int as alert_id from notification_deliveries
          where state = 'held' and sink_id = ${g.sink_id} and next_attempt_at = ${g.until}::timestamptz
          order by id limit ${GROUP_MAX} for update skip locked`,
      );
      if (held.length === 0) continue;
      const rows = await s.tx
        .select()
        .from(notificationAlerts)
        .where(
          inArray(
            notificationAlerts.id,
            held.map((h) => h.alert_id),
          ),
        )
        .orderBy(notificationAlerts.occurred_at, notificationAlerts.id);
      const incidentIds = [...new Set(rows.map((a) => a.incident_id).filter((id): id is number => id != null))];
      const incidents = new Map(
        incidentIds.length === 0
          ? []
          : (
              await s.tx
                .select({
                  id: notificationAlerts.id,
                  resolved_at: notificationAlerts.resolved_at,
                  acknowledged_at: notificationAlerts.acknowledged_at,
                })
                .from(notificationAlerts)
                .where(inArray(notificationAlerts.id, incidentIds))
            ).map((r) => [r.id, r]),
      );
      const message = digestMessage(rows, incidents);
      const [digest] = await s.tx
        .insert(notificationAlerts)
        .values({
          kind: DIGEST_KIND,
          severity: message.severity,
          title: message.title,
          body: message.body,
          detail: { held: message.listed, held_alert_ids: rows.map((a) => a.id), quiet_until: new Date(g.until).toISOString() },
          occurred_at: s.now,
          state: "dispatched",
          dispatched_at: s.now,
          created_at: s.now,
        })
        .returning({ id: notificationAlerts.id });
      const [delivery] = await s.tx
        .insert(notificationDeliveries)
        .values({
          alert_id: digest!.id,
          sink_id: g.sink_id,
          max_attempts: options.maxAttempts,
          next_attempt_at: s.now,
          created_at: s.now,
          updated_at: s.now,
        })
        .returning({ id: notificationDeliveries.id });
      deliveryIds.push(delivery!.id);
      await s.tx
        .update(notificationDeliveries)
        .set({ state: "digested", updated_at: s.now })
        .where(
          and(
            eq(notificationDeliveries.state, "held"),
            inArray(
              notificationDeliveries.id,
              held.map((h) => h.id),
            ),
          ),
        );
      digests++;
      alerts += rows.length;
    }
    if (deliveryIds.length > 0)
      await s.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, ${JSON.stringify({ deliveries: deliveryIds.length })})`);
    return { digests, alerts };
  },
);
