// Reading a status page's incidents with their timelines, and presenting them: to administrators (ids,
// drafts, Markdown and its HTML) and to the public (no ids; affected items by the public names of the
// page's items that point at them now, so an item taken off the page just stops being shown).
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/database.ts";
import { type IncidentRef, statusPageIncidents, statusPageIncidentUpdates } from "../../../db/schema/index.ts";
import { renderSafeMarkdown } from "../../../domain/markdown.ts";
import { ApiError } from "../../../errors.ts";
import type { IncidentImpact, IncidentShape, IncidentStatus, PublicIncidentShape } from "../../../schemas/status-page-incidents.ts";
import type { ItemRow } from "../page-rows.ts";

export type IncidentRow = typeof statusPageIncidents.$inferSelect;
export type UpdateRow = typeof statusPageIncidentUpdates.$inferSelect;

/** What a reference or an item points at, as one key: "monitor:3", "service:7", "tag:media". */
export function refKey(ref: IncidentRef | ItemRow): string {
  const r = ref as { kind: string; monitor_id?: number | null; service_id?: number | null; tag?: string | null };
  if (r.kind === "monitor") return `monitor:${r.monitor_id}`;
  if (r.kind === "service") return `service:${r.service_id}`;
  return `tag:${r.tag}`;
}

/** An item as the reference an incident stores. */
export function itemRef(item: ItemRow): IncidentRef {
  if (item.kind === "monitor") return { kind: "monitor", monitor_id: item.monitor_id! };
  if (item.kind === "service") return { kind: "service", service_id: item.service_id! };
  return { kind: "tag", tag: item.tag! };
}

/** Each key's public name on the page (the first item in page order that points there). */
export function publicNames(items: readonly ItemRow[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const i of items) if (!out.has(refKey(i))) out.set(refKey(i), i.public_name ?? i.tag ?? "");
  return out;
}

/** Each incident's updates, oldest first. */
export async function updatesOf(db: Db, incidentIds: number[]): Promise<Map<number, UpdateRow[]>> {
  const out = new Map<number, UpdateRow[]>(incidentIds.map((id) => [id, []]));
  if (incidentIds.length === 0) return out;
  const rows = await db
    .select()
    .from(statusPageIncidentUpdates)
    .where(inArray(statusPageIncidentUpdates.incident_id, incidentIds))
    .orderBy(asc(statusPageIncidentUpdates.created_at), asc(statusPageIncidentUpdates.id));
  for (const r of rows) out.get(r.incident_id)?.push(r);
  return out;
}

export function presentIncident(row: IncidentRow, updates: UpdateRow[], names: Map<string, string>): IncidentShape {
  return {
    id: row.id,
    page_id: row.page_id,
    key: row.public_key,
    title: row.title,
    status: row.status as IncidentStatus,
    impact: row.impact as IncidentImpact,
    source: row.source as "operator" | "automatic",
    published: row.published_at !== null,
    published_at: row.published_at?.toISOString() ?? null,
    publish_after: row.publish_after?.toISOString() ?? null,
    resolved_at: row.resolved_at?.toISOString() ?? null,
    affected: row.affected.map((r) => ({
      kind: r.kind,
      monitor_id: r.kind === "monitor" ? r.monitor_id : null,
      service_id: r.kind === "service" ? r.service_id : null,
      tag: r.kind === "tag" ? r.tag : null,
      public_name: names.get(refKey(r)) ?? null,
    })),
    updates: updates.map((u) => ({
      id: u.id,
      status: u.status as IncidentStatus,
      body: u.body,
      html: renderSafeMarkdown(u.body),
      created_at: u.created_at.toISOString(),
    })),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A published incident for the public; its updates newest first. */
export function presentPublicIncident(row: IncidentRow, updates: UpdateRow[], names: Map<string, string>): PublicIncidentShape {
  const affected = [...new Set(row.affected.flatMap((r) => names.get(refKey(r)) ?? []))];
  const latest = Math.max(row.published_at!.getTime(), ...updates.map((u) => u.created_at.getTime()));
  return {
    key: row.public_key,
    title: row.title,
    status: row.status as IncidentStatus,
    impact: row.impact as IncidentImpact,
    started_at: row.published_at!.toISOString(),
    resolved_at: row.resolved_at?.toISOString() ?? null,
    updated_at: new Date(latest).toISOString(),
    affected,
    updates: updates
      .map((u) => ({ status: u.status as IncidentStatus, html: renderSafeMarkdown(u.body), created_at: u.created_at.toISOString() }))
      .reverse(),
  };
}

export async function requireIncident(db: Db, pageId: number, id: number, lock = false): Promise<IncidentRow> {
  const q = db.select().from(statusPageIncidents).where(eq(statusPageIncidents.id, id));
  const [row] = lock ? await q.for("update") : await q;
  if (!row || row.page_id !== pageId) throw ApiError.notFound("Incident", id);
  return row;
}
