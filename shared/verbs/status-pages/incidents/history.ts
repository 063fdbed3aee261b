// A published status page's incident history (docs/adr/0457-status-page-history-and-feeds.md): the
// page's look (for the HTML) and one page of its published incidents, newest first. Public: an unknown
// slug and a draft page are the same 404 as the page itself.
import type { StatusPageHistoryShape } from "../../../schemas/status-page-incidents.ts";
import { readBrandingSettings } from "../../branding/config.ts";
import { defineRead } from "../../verb.ts";
import { sectionsOf } from "../page-rows.ts";
import { type PageLookup, pageColors, publishedPage } from "../summary.ts";
import { publishedIncidents } from "./public-incidents.ts";

export const statusPageHistory = defineRead(
  { scope: "public" },
  async (ctx, { by, limit, offset }: { by: PageLookup; limit: number; offset: number }): Promise<StatusPageHistoryShape> => {
    const page = await publishedPage(ctx.db, by);
    const items = ((await sectionsOf(ctx.db, [page.id])).get(page.id) ?? []).flatMap((s) => s.items);
    const found = await publishedIncidents(ctx.db, page.id, items, { limit, offset });
    return {
      page: {
        slug: page.slug,
        title: page.title,
        description: page.description,
        logo_url: page.logo_url,
        footer_text: page.footer_text,
        colors: pageColors(page, await readBrandingSettings(ctx.db)),
        updated_at: page.updated_at.toISOString(),
      },
      ...found,
      limit,
      offset,
    };
  },
);
