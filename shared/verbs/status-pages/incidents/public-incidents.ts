// The incidents the public sees (docs/adr/0456, 0457): published ones only, never a draft. The summary
// shows the current ones (unresolved), the history page, its JSON twin and the feeds every one, newest
// first. Affected items are named by the page's items that point at them now.
import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/database.ts";
import { statusPageIncidents } from "../../../db/schema/index.ts";
import type { PublicIncidentShape } from "../../../schemas/status-page-incidents.ts";
import type { ItemRow } from "../page-rows.ts";
import { type IncidentRow, presentPublicIncident, publicNames, updatesOf } from "./incident-rows.ts";

async function present(db: Db, rows: IncidentRow[], items: readonly ItemRow[]): Promise<PublicIncidentShape[]> {
  const names = publicNames(items);
  const updates = await updatesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentPublicIncident(r, updates.get(r.id) ?? [], names));
}

/** Published, unresolved incidents, newest first. */
export async function currentIncidents(db: Db, pageId: number, items: readonly ItemRow[]): Promise<PublicIncidentShape[]> {
  const rows = await db
    .select()
    .from(statusPageIncidents)
    .where(
      and(eq(statusPageIncidents.page_id, pageId), isNotNull(statusPageIncidents.published_at), isNull(statusPageIncidents.resolved_at)),
    )
    .orderBy(desc(statusPageIncidents.published_at), desc(statusPageIncidents.id));
  return present(db, rows, items);
}

/** One page of every published incident, newest first, and how many there are. */
export async function publishedIncidents(
  db: Db,
  pageId: number,
  items: readonly ItemRow[],
  { limit, offset }: { limit: number; offset: number },
): Promise<{ items: PublicIncidentShape[]; total: number }> {
  const where = and(eq(statusPageIncidents.page_id, pageId), isNotNull(statusPageIncidents.published_at));
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(statusPageIncidents)
      .where(where)
      .orderBy(desc(statusPageIncidents.published_at), desc(statusPageIncidents.id))
      .limit(limit)
      .offset(offset),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${statusPageIncidents} where ${where}`),
  ]);
  return { items: await present(db, rows, items), total: count?.n ?? 0 };
}
