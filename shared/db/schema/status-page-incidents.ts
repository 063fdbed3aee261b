// Incidents of a public status page (issue 31 item 3, docs/adr/0456-status-page-incidents.md): an
// operator's or an automatic proposal, a draft until published, with a timeline of Markdown updates.
// Affected items are stored by what they point at (a monitor, a service or a tag), not by item row:
// a page's items are replaced whole on every save (adr/0454), so they are matched at read time.
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";
import { statusPages } from "./status-pages.ts";

/** One affected reference: the same shape as a page item's, without its public name. */
export type IncidentRef = { kind: "monitor"; monitor_id: number } | { kind: "service"; service_id: number } | { kind: "tag"; tag: string };

export const statusPageIncidents = pgTable(
  "status_page_incidents",
  {
    id: serial("id").primaryKey(),
    page_id: integer("page_id")
      .notNull()
      .references(() => statusPages.id, { onDelete: "cascade" }),
    /** Random, shown publicly (feed ids, anchors) instead of the row id, which would count the drafts. */
    public_key: text("public_key").notNull(),
    title: text("title").notNull(),
    /** investigating | identified | monitoring | resolved: the latest update's. */
    status: text("status").notNull(),
    /** none | minor | major | critical */
    impact: text("impact").notNull(),
    /** operator | automatic */
    source: text("source").notNull(),
    affected: jsonb("affected").$type<IncidentRef[]>().notNull().default([]),
    /** An automatic proposal's item ("monitor:3", "service:7", "tag:media"): one open proposal per item. */
    auto_key: text("auto_key"),
    /** Null: a draft, never public. */
    published_at: tz("published_at"),
    /** An automatic draft is published at this time if its item is still down; null waits for an operator. */
    publish_after: tz("publish_after"),
    resolved_at: tz("resolved_at"),
    ...timestamps,
  },
  (t) => [
    index("status_page_incidents_page_idx").on(t.page_id, t.published_at),
    uniqueIndex("status_page_incidents_public_key_idx").on(t.public_key),
    // Two sidecars reconciling at once cannot both propose an incident for the same item.
    uniqueIndex("status_page_incidents_auto_open_idx").on(t.page_id, t.auto_key).where(sql`auto_key is not null and resolved_at is null`),
  ],
);

export const statusPageIncidentUpdates = pgTable(
  "status_page_incident_updates",
  {
    id: serial("id").primaryKey(),
    incident_id: integer("incident_id")
      .notNull()
      .references(() => statusPageIncidents.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    /** Markdown; rendered and sanitised when shown (shared/domain/markdown.ts). */
    body: text("body").notNull(),
    created_at: tz("created_at").notNull().defaultNow(),
  },
  (t) => [index("status_page_incident_updates_incident_idx").on(t.incident_id, t.created_at)],
);
