// The e-mail and webhook subscribers of a public status page (issue 31 item 5,
// docs/adr/0458-status-page-subscribers.md). A row is made pending by the public subscribe route and
// confirmed by the signed link its confirmation carries (double opt-in); unsubscribing deletes it. Pending
// rows whose confirmation expired are pruned. Their messages are notification deliveries
// (notification_deliveries.subscriber_id), so they get the sinks' retries, attempts and dead letters.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, tz } from "./columns.ts";
import { statusPages } from "./status-pages.ts";

export const statusPageSubscribers = pgTable(
  "status_page_subscribers",
  {
    id: serial("id").primaryKey(),
    page_id: integer("page_id")
      .notNull()
      .references(() => statusPages.id, { onDelete: "cascade" }),
    /** email | webhook */
    kind: text("kind").notNull(),
    /** The e-mail address (lower-case) or the webhook URL. */
    address: text("address").notNull(),
    /** Null while pending: no notice is sent before the owner of the address confirmed. */
    confirmed_at: tz("confirmed_at"),
    /** When the last confirmation was queued (a pending row expires a confirmation's lifetime after it). */
    confirm_sent_at: tz("confirm_sent_at").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("status_page_subscribers_address_idx").on(t.page_id, t.kind, t.address),
    index("status_page_subscribers_pending_idx").on(t.confirm_sent_at).where(sql`confirmed_at is null`),
    check("status_page_subscribers_kind", sql`${t.kind} in ('email', 'webhook')`),
  ],
);
