// Whether someone has an incident in hand (docs/adr/0447-acknowledgement.md): acknowledged and not resolved.
// What re-notification and escalation ask before they send anything more about an incident: an incident
// in hand stops until it recovers (resolved) or is un-acknowledged.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";

export async function isIncidentInHand(db: Db, incidentId: number): Promise<boolean> {
  const [row] = await queryRows<{ in_hand: boolean }>(
    db,
    sql`select (acknowledged_at is not null and resolved_at is null) as in_hand from notification_alerts where id = ${incidentId} and incident_id = id`,
  );
  return row?.in_hand === true;
}
