// An operator's incidents of a status page (docs/adr/0456-status-page-incidents.md): create (a draft
// unless `publish`), read, list, change the title, impact or affected items, delete. The timeline and
// publication are in incident-timeline.ts. Affected items must be on the page when written (a 422 naming
// `affected[i]`); they are matched again at read time. Audited like page changes (`status_page.incident_*`).
import { eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { bytesToBase64Url } from "../../../auth/encoding.ts";
import type { Db } from "../../../db/database.ts";
import { type IncidentRef, statusPageIncidents, statusPageIncidentUpdates } from "../../../db/schema/index.ts";
import { ApiError, type ValidationIssue } from "../../../errors.ts";
import type { ListParams } from "../../../schemas/list-query.ts";
import type { IncidentCreate, IncidentPatch, IncidentShape } from "../../../schemas/status-page-incidents.ts";
import { type ListPage, listPage } from "../../resources/list.ts";
import { defineRead, defineVerb, type VerbScope } from "../../verb.ts";
import { requirePage, sectionsOf } from "../page-rows.ts";
import { READ_STATUS_PAGES, WRITE_STATUS_PAGES } from "../scopes.ts";
import { afterIncidentChange } from "./after-change.ts";
import { type IncidentRow, presentIncident, publicNames, refKey, requireIncident, updatesOf } from "./incident-rows.ts";

/** The page's items' public names by what they point at. */
export async function pageNames(db: Db, pageId: number): Promise<Map<string, string>> {
  return publicNames(((await sectionsOf(db, [pageId])).get(pageId) ?? []).flatMap((s) => s.items));
}

export async function presentOneIncident(db: Db, row: IncidentRow, names?: Map<string, string>): Promise<IncidentShape> {
  return presentIncident(row, (await updatesOf(db, [row.id])).get(row.id) ?? [], names ?? (await pageNames(db, row.page_id)));
}

/** Every affected reference must point at an item of the page now. */
function checkAffected(affected: IncidentRef[], names: Map<string, string>): void {
  const issues: ValidationIssue[] = affected.flatMap((r, i) =>
    names.has(refKey(r)) ? [] : [{ loc: ["body", "affected", i], msg: `No item of this page points at ${refKey(r)}.`, type: "not_found" }],
  );
  if (issues.length > 0) throw ApiError.validation(issues);
}

/** Drops repeated references (the same item named twice). */
const unique = (refs: IncidentRef[]) => [...new Map(refs.map((r) => [refKey(r), r])).values()];

export function checkIncidentVersion(row: IncidentRow, ifMatch: number | undefined): void {
  if (ifMatch !== undefined && row.updated_at.getTime() !== ifMatch)
    throw new ApiError("PRECONDITION_FAILED", `Incident ${row.id} changed since it was read: read it again.`);
}

/** The next version: it must move on even within one millisecond, it is the ETag. */
export const nextVersion = (s: VerbScope, row: IncidentRow) => new Date(Math.max(s.now.getTime(), row.updated_at.getTime() + 1));

export function auditIncident(s: VerbScope, row: { id: number; page_id: number }, action: string, diff: Record<string, unknown>): void {
  s.audit({
    action: `status_page.incident_${action}`,
    category: "status_pages",
    entity_type: "status_page_incident",
    entity_id: row.id,
    diff: { page_id: row.page_id, ...diff },
  });
}

/** A random public key: the row id would tell how many drafts there were. */
export const newPublicKey = (s: VerbScope) => bytesToBase64Url(s.ctx.random.bytes(9));

export const createIncident = defineVerb(
  { scope: WRITE_STATUS_PAGES },
  async (s, { pageId, body }: { pageId: number; body: IncidentCreate }): Promise<IncidentShape> => {
    await requirePage(s.tx, pageId);
    const names = await pageNames(s.tx, pageId);
    const affected = unique(body.affected);
    checkAffected(affected, names);
    const [row] = await s.tx
      .insert(statusPageIncidents)
      .values({
        page_id: pageId,
        public_key: newPublicKey(s),
        title: body.title,
        status: body.status,
        impact: body.impact,
        source: "operator",
        affected,
        published_at: body.publish ? s.now : null,
        resolved_at: body.status === "resolved" ? s.now : null,
        created_at: s.now,
        updated_at: s.now,
      })
      .returning();
    await s.tx.insert(statusPageIncidentUpdates).values({ incident_id: row!.id, status: body.status, body: body.body, created_at: s.now });
    const out = await presentOneIncident(s.tx, row!, names);
    auditIncident(s, row!, "create", { after: out });
    if (body.publish) await afterIncidentChange(s, { page_id: pageId, incident_id: row!.id, kind: "published" });
    return out;
  },
);

export const patchIncident = defineVerb(
  { scope: WRITE_STATUS_PAGES },
  async (s, input: { pageId: number; id: number; body: IncidentPatch; ifMatch?: number | undefined }): Promise<IncidentShape> => {
    const before = await requireIncident(s.tx, input.pageId, input.id, true);
    checkIncidentVersion(before, input.ifMatch);
    const names = await pageNames(s.tx, input.pageId);
    const { affected: given, ...fields } = input.body;
    const affected = given === undefined ? undefined : unique(given);
    if (affected) checkAffected(affected, names);
    const beforeShape = await presentOneIncident(s.tx, before, names);
    const [row] = await s.tx
      .update(statusPageIncidents)
      .set({ ...fields, ...(affected ? { affected } : {}), updated_at: nextVersion(s, before) })
      .where(eq(statusPageIncidents.id, before.id))
      .returning();
    const out = await presentOneIncident(s.tx, row!, names);
    auditIncident(s, row!, "update", { before: beforeShape, after: out });
    if (row!.published_at !== null) await afterIncidentChange(s, { page_id: row!.page_id, incident_id: row!.id, kind: "edited" });
    return out;
  },
);

export const deleteIncident = defineVerb(
  { scope: WRITE_STATUS_PAGES },
  async (s, input: { pageId: number; id: number; ifMatch?: number | undefined }): Promise<void> => {
    const before = await requireIncident(s.tx, input.pageId, input.id, true);
    checkIncidentVersion(before, input.ifMatch);
    const beforeShape = await presentOneIncident(s.tx, before);
    await s.tx.delete(statusPageIncidents).where(eq(statusPageIncidents.id, before.id));
    auditIncident(s, before, "delete", { before: beforeShape });
    if (before.published_at !== null) await afterIncidentChange(s, { page_id: before.page_id, incident_id: before.id, kind: "deleted" });
  },
);

export const getIncident = defineRead({ scope: READ_STATUS_PAGES }, async (ctx, { pageId, id }: { pageId: number; id: number }) =>
  presentOneIncident(ctx.db, await requireIncident(ctx.db, pageId, id)),
);

const SPEC = {
  table: statusPageIncidents,
  id: statusPageIncidents.id,
  sortable: {
    created_at: statusPageIncidents.created_at,
    id: statusPageIncidents.id,
    published_at: statusPageIncidents.published_at,
    title: sql`lower(${statusPageIncidents.title})`,
  },
  search: [statusPageIncidents.title],
};

const STATE: Record<"draft" | "open" | "resolved", SQL | undefined> = {
  draft: isNull(statusPageIncidents.published_at),
  open: isNull(statusPageIncidents.resolved_at),
  resolved: isNotNull(statusPageIncidents.resolved_at),
};

export const listIncidents = defineRead<
  { pageId: number; query: ListParams & { state?: "draft" | "open" | "resolved" | undefined } },
  ListPage<IncidentShape>
>({ scope: READ_STATUS_PAGES }, async (ctx, { pageId, query }) => {
  await requirePage(ctx.db, pageId);
  const names = await pageNames(ctx.db, pageId);
  return listPage<IncidentRow, IncidentShape>(
    ctx.db,
    SPEC,
    query,
    [eq(statusPageIncidents.page_id, pageId), query.state ? STATE[query.state] : undefined],
    async (rows) => {
      const updates = await updatesOf(
        ctx.db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => presentIncident(r, updates.get(r.id) ?? [], names));
    },
  );
});
