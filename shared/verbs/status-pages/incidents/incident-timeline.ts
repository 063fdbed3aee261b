// An incident's timeline and publication (docs/adr/0456-status-page-incidents.md). An update is a
// Markdown entry that may change the status; `resolved` sets resolved_at, and a resolved incident takes
// further notes (a post-mortem) but is not reopened: a new outage is a new incident (409). Publishing is
// the operator's confirmation of a draft (409 when already published). What becomes public goes through
// afterIncidentChange.
import { eq, isNull, and } from "drizzle-orm";
import { statusPageIncidents, statusPageIncidentUpdates } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { IncidentShape, IncidentUpdateInput } from "../../../schemas/status-page-incidents.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { WRITE_STATUS_PAGES } from "../scopes.ts";
import { afterIncidentChange } from "./after-change.ts";
import { type IncidentRow, requireIncident } from "./incident-rows.ts";
import { auditIncident, checkIncidentVersion, nextVersion, presentOneIncident } from "./incidents.ts";

export const addIncidentUpdate = defineVerb(
  { scope: WRITE_STATUS_PAGES },
  async (s, input: { pageId: number; id: number; body: IncidentUpdateInput; ifMatch?: number | undefined }): Promise<IncidentShape> => {
    const before = await requireIncident(s.tx, input.pageId, input.id, true);
    checkIncidentVersion(before, input.ifMatch);
    const status = input.body.status ?? before.status;
    if (before.resolved_at !== null && status !== "resolved")
      throw ApiError.conflict(`Incident ${before.id} is resolved: open a new incident rather than reopening it.`, { field: "status" });
    const resolving = status === "resolved" && before.resolved_at === null;
    const [update] = await s.tx
      .insert(statusPageIncidentUpdates)
      .values({ incident_id: before.id, status, body: input.body.body, created_at: s.now })
      .returning();
    const [row] = await s.tx
      .update(statusPageIncidents)
      .set({ status, updated_at: nextVersion(s, before), ...(resolving ? { resolved_at: s.now, publish_after: null } : {}) })
      .where(eq(statusPageIncidents.id, before.id))
      .returning();
    const out = await presentOneIncident(s.tx, row!);
    auditIncident(s, row!, "add_update", { update: { id: update!.id, status, body: update!.body }, status_from: before.status });
    if (row!.published_at !== null)
      await afterIncidentChange(s, { page_id: row!.page_id, incident_id: row!.id, kind: resolving ? "resolved" : "updated" });
    return out;
  },
);

/**
 * Publishes a draft now, if it still is one (an operator and the automatic publisher may race: the
 * conditional update lets exactly one win). Returns the published row, or null when it was not a draft.
 */
export async function publishDraft(s: VerbScope, row: IncidentRow): Promise<IncidentRow | null> {
  const [published] = await s.tx
    .update(statusPageIncidents)
    .set({ published_at: s.now, publish_after: null, updated_at: nextVersion(s, row) })
    .where(and(eq(statusPageIncidents.id, row.id), isNull(statusPageIncidents.published_at)))
    .returning();
  if (!published) return null;
  await afterIncidentChange(s, { page_id: published.page_id, incident_id: published.id, kind: "published" });
  return published;
}

export const publishIncident = defineVerb(
  { scope: WRITE_STATUS_PAGES },
  async (s, input: { pageId: number; id: number; ifMatch?: number | undefined }): Promise<IncidentShape> => {
    const before = await requireIncident(s.tx, input.pageId, input.id, true);
    checkIncidentVersion(before, input.ifMatch);
    const row = await publishDraft(s, before);
    if (!row) throw ApiError.conflict(`Incident ${before.id} is already published.`, { field: "published" });
    const out = await presentOneIncident(s.tx, row);
    auditIncident(s, row, "publish", { after: out });
    return out;
  },
);
