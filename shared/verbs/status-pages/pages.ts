// /status-pages CRUD (docs/adr/0454-status-pages.md). A page's sections and items are replaced as a
// whole whenever `sections` is given (create, or a PATCH carrying it): one consistent model, no ids of
// sections or items to keep in step. A slug or custom domain already taken is a 409 naming the field.
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { monitors, services, statusPageItems, statusPageSections, statusPages } from "../../db/schema/index.ts";
import { assignItemKeys } from "../../domain/status-pages/item-keys.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { ListParams } from "../../schemas/list-query.ts";
import type {
  AutoIncidentsShape,
  StatusPageCreate,
  StatusPagePatch,
  StatusPageSectionInput,
  StatusPageShape,
} from "../../schemas/status-pages.ts";
import { type ListPage, listPage } from "../resources/list.ts";
import { defineRead, defineVerb, type VerbScope } from "../verb.ts";
import { type PageRow, presentOne, presentPage, requirePage, sectionsOf } from "./page-rows.ts";
import { READ_STATUS_PAGES, WRITE_STATUS_PAGES } from "./scopes.ts";

/** Every monitor and service an item names must exist: a 422 naming `sections[i].items[j].<field>`. */
async function checkRefs(db: Db, sections: StatusPageSectionInput[]): Promise<void> {
  const items = sections.flatMap((s, i) => s.items.map((item, j) => ({ item, i, j })));
  const monitorIds = items.flatMap(({ item }) => (item.kind === "monitor" ? [item.monitor_id] : []));
  const serviceIds = items.flatMap(({ item }) => (item.kind === "service" ? [item.service_id] : []));
  const known = async (ids: number[], table: typeof monitors | typeof services) =>
    new Set(ids.length === 0 ? [] : (await db.select({ id: table.id }).from(table).where(inArray(table.id, ids))).map((r) => r.id));
  const [knownMonitors, knownServices] = [await known(monitorIds, monitors), await known(serviceIds, services)];
  const issues: ValidationIssue[] = [];
  for (const { item, i, j } of items) {
    if (item.kind === "monitor" && !knownMonitors.has(item.monitor_id))
      issues.push({
        loc: ["body", "sections", i, "items", j, "monitor_id"],
        msg: `No such monitor: ${item.monitor_id}.`,
        type: "not_found",
      });
    if (item.kind === "service" && !knownServices.has(item.service_id))
      issues.push({
        loc: ["body", "sections", i, "items", j, "service_id"],
        msg: `No such service: ${item.service_id}.`,
        type: "not_found",
      });
  }
  if (issues.length > 0) throw ApiError.validation(issues);
}

/** A slug or custom domain another page holds is a 409 naming the field (the unique indexes back this up). */
async function checkUnique(db: Db, values: { slug?: string | undefined; custom_domain?: string | null | undefined }, id?: number) {
  const other = (cond: ReturnType<typeof eq>) =>
    db
      .select({ id: statusPages.id })
      .from(statusPages)
      .where(id === undefined ? cond : and(cond, ne(statusPages.id, id)))
      .limit(1);
  if (values.slug !== undefined && (await other(eq(statusPages.slug, values.slug))).length > 0)
    throw ApiError.conflict(`The slug "${values.slug}" is taken by another status page.`, { field: "slug" });
  if (values.custom_domain && (await other(eq(statusPages.custom_domain, values.custom_domain))).length > 0)
    throw ApiError.conflict(`The domain "${values.custom_domain}" is taken by another status page.`, { field: "custom_domain" });
}

/** Each item's key, by section then item (docs/adr/0461); a key sent twice is a 422 naming the later one. */
function itemKeys(sections: StatusPageSectionInput[]): string[][] {
  const at = sections.flatMap((s, i) => s.items.map((item, j) => ({ item, i, j })));
  const { keys, duplicates } = assignItemKeys(
    at.map(({ item }) => ({ key: item.key, name: item.kind === "tag" ? (item.public_name ?? item.tag) : item.public_name })),
  );
  if (duplicates.length > 0)
    throw ApiError.validation(
      duplicates.map((n) => ({
        loc: ["body", "sections", at[n]!.i, "items", at[n]!.j, "key"],
        msg: `Another item of this page has the key "${at[n]!.item.key}".`,
        type: "duplicate",
      })),
    );
  let n = 0;
  return sections.map((s) => s.items.map(() => keys[n++]!));
}

async function replaceSections(tx: Db, pageId: number, sections: StatusPageSectionInput[]): Promise<void> {
  const keys = itemKeys(sections);
  await tx.delete(statusPageSections).where(eq(statusPageSections.page_id, pageId));
  for (const [position, s] of sections.entries()) {
    const sectionKeys = keys[position]!;
    const [row] = await tx
      .insert(statusPageSections)
      .values({ page_id: pageId, position, name: s.name, show_messages: s.show_messages })
      .returning({ id: statusPageSections.id });
    if (s.items.length === 0) continue;
    await tx.insert(statusPageItems).values(
      s.items.map((item, j) => ({
        section_id: row!.id,
        position: j,
        kind: item.kind,
        monitor_id: item.kind === "monitor" ? item.monitor_id : null,
        service_id: item.kind === "service" ? item.service_id : null,
        tag: item.kind === "tag" ? item.tag : null,
        public_name: item.public_name ?? null,
        key: sectionKeys[j]!,
      })),
    );
  }
}

/** The page's automatic incident setting as its two columns (none when not given). */
function autoColumns(auto: AutoIncidentsShape | undefined) {
  return auto === undefined ? {} : { auto_incidents: auto.enabled, auto_publish_after_s: auto.publish_after_secs };
}

function checkVersion(row: PageRow, ifMatch: number | undefined): void {
  if (ifMatch !== undefined && row.updated_at.getTime() !== ifMatch)
    throw new ApiError("PRECONDITION_FAILED", `Status page ${row.id} changed since it was read: read it again.`);
}

function audit(s: VerbScope, id: number, action: string, diff: Record<string, unknown>): void {
  s.audit({ action: `status_page.${action}`, category: "status_pages", entity_type: "status_page", entity_id: id, diff });
  // Every process's page cache forgets this page (and its live streams read it again) on commit (docs/adr/0459).
  s.emit("status_pages", { page_id: id });
}

export const createStatusPage = defineVerb({ scope: WRITE_STATUS_PAGES }, async (s, body: StatusPageCreate): Promise<StatusPageShape> => {
  const { sections, auto_incidents, ...fields } = body;
  await checkUnique(s.tx, fields);
  await checkRefs(s.tx, sections);
  const [row] = await s.tx
    .insert(statusPages)
    .values({ ...fields, ...autoColumns(auto_incidents), created_at: s.now, updated_at: s.now })
    .returning();
  await replaceSections(s.tx, row!.id, sections);
  const out = await presentOne(s.tx, row!);
  audit(s, row!.id, "create", { after: out });
  return out;
});

export const patchStatusPage = defineVerb(
  { scope: WRITE_STATUS_PAGES },
  async (s, { id, body, ifMatch }: { id: number; body: StatusPagePatch; ifMatch?: number | undefined }) => {
    const before = await requirePage(s.tx, id, true);
    checkVersion(before, ifMatch);
    const { sections, auto_incidents, ...fields } = body;
    await checkUnique(s.tx, fields, id);
    if (sections) await checkRefs(s.tx, sections);
    const beforeShape = await presentOne(s.tx, before);
    // The version must move on even within one millisecond: it is the ETag.
    const updated_at = new Date(Math.max(s.now.getTime(), before.updated_at.getTime() + 1));
    const [row] = await s.tx
      .update(statusPages)
      .set({ ...fields, ...autoColumns(auto_incidents), updated_at })
      .where(eq(statusPages.id, id))
      .returning();
    if (sections) await replaceSections(s.tx, id, sections);
    const out = await presentOne(s.tx, row!);
    audit(s, id, "update", { before: beforeShape, after: out });
    return out;
  },
);

export const deleteStatusPage = defineVerb(
  { scope: WRITE_STATUS_PAGES },
  async (s, { id, ifMatch }: { id: number; ifMatch?: number | undefined }): Promise<void> => {
    const before = await requirePage(s.tx, id, true);
    checkVersion(before, ifMatch);
    const beforeShape = await presentOne(s.tx, before);
    await s.tx.delete(statusPages).where(eq(statusPages.id, id));
    audit(s, id, "delete", { before: beforeShape });
  },
);

export const getStatusPage = defineRead({ scope: READ_STATUS_PAGES }, async (ctx, { id }: { id: number }) =>
  presentOne(ctx.db, await requirePage(ctx.db, id)),
);

const SPEC = {
  table: statusPages,
  id: statusPages.id,
  sortable: { title: sql`lower(${statusPages.title})`, slug: statusPages.slug, id: statusPages.id, created_at: statusPages.created_at },
  search: [statusPages.title, statusPages.slug],
};

export const listStatusPages = defineRead<ListParams, ListPage<StatusPageShape>>({ scope: READ_STATUS_PAGES }, (ctx, query) =>
  listPage<PageRow, StatusPageShape>(ctx.db, SPEC, query, [], async (rows) => {
    const sections = await sectionsOf(
      ctx.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => presentPage(r, sections.get(r.id) ?? []));
  }),
);
