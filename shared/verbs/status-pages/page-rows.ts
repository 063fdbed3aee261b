// Reading a status page with its sections and items, and presenting it to the admin API.
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { statusPageItems, statusPageSections, statusPages } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { StatusPageShape } from "../../schemas/status-pages.ts";

export type PageRow = typeof statusPages.$inferSelect;
export type ItemRow = typeof statusPageItems.$inferSelect;
export interface SectionWithItems {
  name: string;
  show_messages: boolean;
  items: ItemRow[];
}

/** Each page's sections in order, each with its items in order. */
export async function sectionsOf(db: Db, pageIds: number[]): Promise<Map<number, SectionWithItems[]>> {
  const out = new Map<number, SectionWithItems[]>(pageIds.map((id) => [id, []]));
  if (pageIds.length === 0) return out;
  const sections = await db
    .select()
    .from(statusPageSections)
    .where(inArray(statusPageSections.page_id, pageIds))
    .orderBy(asc(statusPageSections.page_id), asc(statusPageSections.position));
  const items =
    sections.length === 0
      ? []
      : await db
          .select()
          .from(statusPageItems)
          .where(
            inArray(
              statusPageItems.section_id,
              sections.map((s) => s.id),
            ),
          )
          .orderBy(asc(statusPageItems.section_id), asc(statusPageItems.position));
  const bySection = new Map<number, ItemRow[]>(sections.map((s) => [s.id, []]));
  for (const i of items) bySection.get(i.section_id)?.push(i);
  for (const s of sections) out.get(s.page_id)?.push({ name: s.name, show_messages: s.show_messages, items: bySection.get(s.id) ?? [] });
  return out;
}

export function presentPage(p: PageRow, sections: SectionWithItems[]): StatusPageShape {
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    description: p.description,
    logo_url: p.logo_url,
    primary_color: p.primary_color,
    accent_color: p.accent_color,
    footer_text: p.footer_text,
    published: p.published,
    custom_domain: p.custom_domain,
    auto_incidents: { enabled: p.auto_incidents, publish_after_secs: p.auto_publish_after_s },
    sections: sections.map((s) => ({
      name: s.name,
      show_messages: s.show_messages,
      items: s.items.map((i) => ({
        kind: i.kind as "monitor" | "service" | "tag",
        monitor_id: i.monitor_id,
        service_id: i.service_id,
        tag: i.tag,
        public_name: i.public_name,
        key: i.key,
      })),
    })),
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export async function presentOne(db: Db, p: PageRow): Promise<StatusPageShape> {
  return presentPage(p, (await sectionsOf(db, [p.id])).get(p.id) ?? []);
}

export async function requirePage(db: Db, id: number, lock = false): Promise<PageRow> {
  const q = db.select().from(statusPages).where(eq(statusPages.id, id));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw ApiError.notFound("Status page", id);
  return row;
}
