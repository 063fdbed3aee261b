// Automatic incident proposals (docs/adr/0456-status-page-incidents.md), level-triggered: each round
// looks at what is true now, so a missed NOTIFY, a restart or a second sidecar changes nothing. For every
// page with auto incidents on:
// - an item that is down and that no unresolved incident of the page names gets a draft, "<public
//   name> is down" (investigating, major, source automatic), published after the page's delay, or kept
//   for an operator when the delay is null;
// - an automatic draft whose time has come while its item is still down is published;
// - an automatic draft whose item is no longer down (recovered, or taken off the page) is discarded:
//   it was never public, so there is nothing to tell anyone.
// Two sidecars: pages are claimed FOR UPDATE SKIP LOCKED, and the unique partial index on (page_id,
// auto_key) of unresolved incidents refuses a second proposal for one item whatever happens.
import { and, eq, isNull } from "drizzle-orm";
import { statusPageIncidents, statusPageIncidentUpdates, statusPages } from "../../../db/schema/index.ts";
import { itemState } from "../../../domain/status-pages/item-state.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { itemMonitors } from "../item-monitors.ts";
import { type ItemRow, type PageRow, sectionsOf } from "../page-rows.ts";
import { WRITE_STATUS_PAGES } from "../scopes.ts";
import { type IncidentRow, itemRef, presentIncident, publicNames, refKey } from "./incident-rows.ts";
import { auditIncident, newPublicKey } from "./incidents.ts";
import { publishDraft } from "./incident-timeline.ts";

export interface AutoOutcome {
  proposed: number;
  published: number;
  discarded: number;
}

/** Its publish time (the page's delay after the proposal) has come; null waits for an operator. */
const readyToPublish = (row: IncidentRow, now: Date) => row.publish_after !== null && row.publish_after.getTime() <= now.getTime();

/** The page's items that are down now, one per key (the first in page order). */
async function downItems(s: VerbScope, items: ItemRow[]): Promise<Map<string, ItemRow>> {
  const members = await itemMonitors(s.tx, items);
  const out = new Map<string, ItemRow>();
  for (const i of items)
    if (itemState((members.get(i.id) ?? []).map((m) => m.status)) === "down" && !out.has(refKey(i))) out.set(refKey(i), i);
  return out;
}

async function reconcilePage(s: VerbScope, page: PageRow, outcome: AutoOutcome): Promise<void> {
  const items = ((await sectionsOf(s.tx, [page.id])).get(page.id) ?? []).flatMap((sec) => sec.items);
  const names = publicNames(items);
  const down = await downItems(s, items);
  const open = await s.tx
    .select()
    .from(statusPageIncidents)
    .where(and(eq(statusPageIncidents.page_id, page.id), isNull(statusPageIncidents.resolved_at)));
  const named = new Set(open.flatMap((i) => i.affected.map(refKey)));
  for (const [key, item] of down) {
    if (named.has(key)) continue;
    const name = names.get(key)!;
    const [row] = await s.tx
      .insert(statusPageIncidents)
      .values({
        page_id: page.id,
        public_key: newPublicKey(s),
        title: `${name} is down`,
        status: "investigating",
        impact: "major",
        source: "automatic",
        affected: [itemRef(item)],
        auto_key: key,
        publish_after: page.auto_publish_after_s === null ? null : new Date(s.now.getTime() + page.auto_publish_after_s * 1000),
        created_at: s.now,
        updated_at: s.now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) continue;
    const body = `Our checks find ${name} down. We are investigating.`;
    const [update] = await s.tx
      .insert(statusPageIncidentUpdates)
      .values({ incident_id: row.id, status: "investigating", body, created_at: s.now })
      .returning();
    auditIncident(s, row, "propose", { after: presentIncident(row, [update!], names) });
    outcome.proposed++;
    // A delay of 0 publishes in this same round.
    if (readyToPublish(row, s.now) && (await publishDraft(s, row))) {
      auditIncident(s, row, "publish", { automatic: true });
      outcome.published++;
    }
  }
  for (const draft of open) {
    if (draft.source !== "automatic" || draft.published_at !== null || draft.auto_key === null) continue;
    if (!down.has(draft.auto_key)) {
      const gone = await s.tx
        .delete(statusPageIncidents)
        .where(and(eq(statusPageIncidents.id, draft.id), isNull(statusPageIncidents.published_at)))
        .returning({ id: statusPageIncidents.id });
      if (gone.length === 0) continue;
      auditIncident(s, draft, "discard", { title: draft.title, reason: "the item is no longer down" });
      outcome.discarded++;
    } else if (readyToPublish(draft, s.now) && (await publishDraft(s, draft))) {
      auditIncident(s, draft, "publish", { automatic: true });
      outcome.published++;
    }
  }
}

export const reconcileAutoIncidents = defineVerb({ scope: WRITE_STATUS_PAGES }, async (s, _: void): Promise<AutoOutcome> => {
  // A page another sidecar is reconciling (or an operator is saving) is skipped: the next round has it.
  const pages = await s.tx.select().from(statusPages).where(eq(statusPages.auto_incidents, true)).for("update", { skipLocked: true });
  const outcome: AutoOutcome = { proposed: 0, published: 0, discarded: 0 };
  for (const page of pages) await reconcilePage(s, page, outcome);
  return outcome;
});
