// Public status pages (issue 31, docs/adr/0454-status-pages.md): a page, its ordered sections and each
// section's ordered items (a monitor, an inventory service or a whole tag). Sections and items are
// replaced as a whole when a page's `sections` change, so their ids are not part of the API.
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns.ts";
import { services } from "./inventory.ts";
import { monitors } from "./monitors.ts";

export const statusPages = pgTable(
  "status_pages",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    logo_url: text("logo_url"),
    /** Null: the branding settings' colour at the time the page is served. */
    primary_color: text("primary_color"),
    accent_color: text("accent_color"),
    footer_text: text("footer_text"),
    /** A draft (false) is never served publicly. */
    published: boolean("published").notNull().default(false),
    /** Lower-case host name; requests with this Host get the page at `/`. */
    custom_domain: text("custom_domain"),
    /** Propose a draft incident when a listed item goes down (docs/adr/0456-status-page-incidents.md). */
    auto_incidents: boolean("auto_incidents").notNull().default(false),
    /** Publish such a draft after this many seconds if the item is still down; null waits for an operator. */
    auto_publish_after_s: integer("auto_publish_after_s"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("status_pages_slug_idx").on(t.slug),
    uniqueIndex("status_pages_custom_domain_idx").on(t.custom_domain).where(sql`custom_domain is not null`),
  ],
);

export const statusPageSections = pgTable(
  "status_page_sections",
  {
    id: serial("id").primaryKey(),
    page_id: integer("page_id")
      .notNull()
      .references(() => statusPages.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    /** Opt-in: the public may read the last message of this section's monitors. */
    show_messages: boolean("show_messages").notNull().default(false),
  },
  (t) => [uniqueIndex("status_page_sections_position_idx").on(t.page_id, t.position)],
);

export const statusPageItems = pgTable(
  "status_page_items",
  {
    id: serial("id").primaryKey(),
    section_id: integer("section_id")
      .notNull()
      .references(() => statusPageSections.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    /** monitor | service | tag */
    kind: text("kind").notNull(),
    // Deleting the monitor or service removes the item from its page rather than leaving a dangling row.
    monitor_id: integer("monitor_id").references(() => monitors.id, { onDelete: "cascade" }),
    service_id: integer("service_id").references(() => services.id, { onDelete: "cascade" }),
    tag: text("tag"),
    public_name: text("public_name"),
    /**
     * The item's public address within its page (badges: /badges/status-pages/{slug}/items/{key}/...):
     * kept across saves when the admin API sends it back, else a slug of the public name (docs/adr/0461).
     * Unique within a page, which the save checks (items are replaced as a whole under the page's lock).
     */
    key: text("key").notNull(),
  },
  (t) => [
    uniqueIndex("status_page_items_position_idx").on(t.section_id, t.position),
    index("status_page_items_monitor_idx").on(t.monitor_id),
    index("status_page_items_service_idx").on(t.service_id),
    check(
      "status_page_items_kind_check",
      sql`(kind = 'monitor' and monitor_id is not null and service_id is null and tag is null)
        or (kind = 'service' and service_id is not null and monitor_id is null and tag is null)
        or (kind = 'tag' and tag is not null and monitor_id is null and service_id is null)`,
    ),
  ],
);
