// The public summary of a published status page (docs/adr/0454-status-pages.md), the JSON twin and the
// HTML page's one source. Only what the page lists leaves here: public names (a tag item without one
// shows the tag), states, bars and maintenance times; a monitor's message only in a section that opts
// in. An unknown slug and a draft are the same 404.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { statusPages } from "../../db/schema/index.ts";
import { itemState, pageState } from "../../domain/status-pages/item-state.ts";
import { ApiError } from "../../errors.ts";
import type { StatusPageSummaryShape } from "../../schemas/status-page-summary.ts";
import { readBrandingSettings } from "../branding/config.ts";
import { defineRead } from "../verb.ts";
import { currentIncidents } from "./incidents/public-incidents.ts";
import { itemMonitors } from "./item-monitors.ts";
import { type PageRow, sectionsOf } from "./page-rows.ts";
import { pageMaintenance } from "./page-maintenance.ts";
import { upstreamsDown } from "./upstream-down.ts";
import { bar, DAYS, dailyCounts, dayKeys, hourKeys, hourlyCounts, overall } from "./uptime-bars.ts";

export type PageLookup = { slug: string } | { domain: string };
/** Filled by a build for the page cache (docs/adr/0459): the page and the monitors its items resolved to. */
export interface SummarySources {
  pageId?: number;
  monitorIds?: number[];
}

export async function publishedPage(db: Db, by: PageLookup): Promise<PageRow> {
  const where = "slug" in by ? eq(statusPages.slug, by.slug.toLowerCase()) : eq(statusPages.custom_domain, by.domain.toLowerCase());
  const [row] = await db
    .select()
    .from(statusPages)
    .where(and(where, eq(statusPages.published, true)));
  // The same answer for a draft as for nothing: a draft's existence is not public.
  if (!row) throw new ApiError("RESOURCE_NOT_FOUND", "No such status page.");
  return row;
}

/** The page's colours; null ones follow the branding settings. */
export function pageColors(page: PageRow, branding: Awaited<ReturnType<typeof readBrandingSettings>>) {
  return {
    primary: page.primary_color ?? branding.primary_color,
    accent: page.accent_color ?? branding.accent_colors[0] ?? branding.primary_color,
  };
}

export async function buildSummary(db: Db, page: PageRow, now: Date, sources: SummarySources = {}): Promise<StatusPageSummaryShape> {
  const sections = (await sectionsOf(db, [page.id])).get(page.id) ?? [];
  const items = sections.flatMap((s) => s.items);
  const members = await itemMonitors(db, items);
  const monitorIds = [...new Set([...members.values()].flat().map((m) => m.id))];
  Object.assign(sources, { pageId: page.id, monitorIds });
  const [daily, hourly, branding] = [
    await dailyCounts(db, monitorIds, now),
    await hourlyCounts(db, monitorIds, now),
    await readBrandingSettings(db),
  ];
  const days = dayKeys(now);
  const hours = hourKeys(now);
  const publicName = new Map(items.map((i) => [i.id, i.public_name ?? i.tag ?? ""]));
  const states = new Map(items.map((i) => [i.id, itemState((members.get(i.id) ?? []).map((m) => m.status))]));
  const upstream = await upstreamsDown(db, items, members, states);
  const idsOf = (itemId: number) => (members.get(itemId) ?? []).map((m) => m.id);
  const maintenance = await pageMaintenance(db, new Map(items.map((i) => [i.id, idsOf(i.id)])), now);
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    logo_url: page.logo_url,
    footer_text: page.footer_text,
    colors: pageColors(page, branding),
    state: pageState([...states.values()]),
    incidents: await currentIncidents(db, page.id, items),
    maintenance: maintenance.map((m) => ({
      state: m.state,
      starts_at: m.starts_at,
      ends_at: m.ends_at,
      items: m.itemIds.map((id) => publicName.get(id)!),
    })),
    sections: sections.map((s) => ({
      name: s.name,
      items: s.items.map((i) => {
        const ids = idsOf(i.id);
        const dayBar = bar(daily, ids, days);
        const up = upstream.get(i.id);
        return {
          name: publicName.get(i.id)!,
          state: states.get(i.id)!,
          upstream_down: up === undefined ? null : publicName.get(up)!,
          ...(s.show_messages && i.kind === "monitor" ? { message: members.get(i.id)?.[0]?.last_msg ?? null } : {}),
          uptime_90d: overall(daily, ids),
          days: days.map((date, k) => ({ date, uptime: dayBar[k]! })),
          last_24h: bar(hourly, ids, hours).map((uptime, k) => ({ hour: hours[k]!, uptime })),
        };
      }),
    })),
  };
}

export const statusPageSummary = defineRead({ scope: "public" }, async (ctx, by: PageLookup & { sources?: SummarySources }) =>
  buildSummary(ctx.db, await publishedPage(ctx.db, by), ctx.clock.now(), by.sources),
);

export { DAYS };
