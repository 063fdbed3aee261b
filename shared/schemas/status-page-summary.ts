// GET /status-pages/{slug}/summary (docs/adr/0454-status-pages.md): what a published status page shows,
// and nothing else: public names, states, bars, maintenance; no ids, hosts or internal names.
import * as v from "valibot";
import { PublicIncident } from "./status-page-incidents.ts";

const State = v.picklist(["up", "degraded", "down", "maintenance", "unknown"]);
const Pct = v.nullable(v.number());

export const StatusPageSummaryItem = v.object({
  name: v.string(),
  state: State,
  /** The public name of an upstream item on this page that is down and explains this one's state. */
  upstream_down: v.nullable(v.string()),
  /** Only in a section that opts in (show_messages), and only for a monitor item. */
  message: v.optional(v.nullable(v.string())),
  uptime_90d: Pct,
  days: v.array(v.object({ date: v.string(), uptime: Pct })),
  last_24h: v.array(v.object({ hour: v.string(), uptime: Pct })),
});
export type StatusPageSummaryItemShape = v.InferInput<typeof StatusPageSummaryItem>;

export const StatusPageSummary = v.object({
  slug: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  logo_url: v.nullable(v.string()),
  footer_text: v.nullable(v.string()),
  colors: v.object({ primary: v.string(), accent: v.string() }),
  state: v.picklist(["operational", "degraded", "outage", "maintenance", "unknown"]),
  /** Published, unresolved incidents, newest first, each with its timeline (newest first). */
  incidents: v.array(PublicIncident),
  maintenance: v.array(
    v.object({
      state: v.picklist(["in_progress", "scheduled"]),
      starts_at: v.nullable(v.string()),
      ends_at: v.nullable(v.string()),
      items: v.array(v.string()),
    }),
  ),
  sections: v.array(v.object({ name: v.string(), items: v.array(StatusPageSummaryItem) })),
});
export type StatusPageSummaryShape = v.InferInput<typeof StatusPageSummary>;

export const StatusPageSlugParam = v.object({ slug: v.pipe(v.string(), v.maxLength(64)) });
