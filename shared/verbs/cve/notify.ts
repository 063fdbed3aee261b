// After a sync, the findings of severity warning or above that are certain (every criterion decided,
// not "may apply") for inventory assets go through the notification routes (enqueueAlert), each
// (asset, CVE) once: cve_notified remembers what was sent. CVSS >= 9.0 (or severity critical without a
// score) is a critical alert, >= 7.0 (high) a warning; lower scores are not alerted. At most MAX_ALERTS
// alerts per sync, the rest folded into one summary alert (the first import of a big feed).
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { type AlertSeverity, enqueueAlert } from "../notifications/enqueue-alert.ts";
import { JOBS_SCOPE } from "../jobs/scope.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineVerb } from "../verb.ts";
import { assessMany, type Finding } from "./assess.ts";
import { readFeedState } from "./feed-state.ts";
import { ENTITY_TYPES, type EntityType, type ResolvedAsset, resolveAssets } from "./identity.ts";

export const MAX_ALERTS = 50;

export function alertSeverity(f: Pick<Finding, "cvss_score" | "severity">): AlertSeverity | null {
  if (f.cvss_score !== null) return f.cvss_score >= 9 ? "critical" : f.cvss_score >= 7 ? "warning" : null;
  return f.severity === "critical" ? "critical" : f.severity === "high" ? "warning" : null;
}

interface Candidate {
  entity_type: EntityType;
  entity_id: number;
  name: string;
  cve_id: string;
  severity: AlertSeverity;
  finding: Finding;
}

const recordAndAlert = defineVerb<{ candidates: Candidate[]; generation: number }, { alerts: number; findings: number }>(
  { scope: JOBS_SCOPE },
  async (s, { candidates, generation }) => {
    const rows = candidates.map((c) => ({ entity_type: c.entity_type, entity_id: c.entity_id, cve_id: c.cve_id }));
    const fresh = await queryRows<{ entity_type: string; entity_id: number; cve_id: string }>(
      s.tx,
      sql`insert into cve_notified (entity_type, entity_id, cve_id, notified_at)
      select r.entity_type, r.entity_id, r.cve_id, ${s.now.toISOString()}::timestamptz from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(entity_type text, entity_id int, cve_id text)
      on conflict do nothing returning entity_type, entity_id, cve_id`,
    );
    if (fresh.length === 0) return { alerts: 0, findings: 0 };
    const key = (c: { entity_type: string; entity_id: number; cve_id: string }) => `${c.entity_type}:${c.entity_id}:${c.cve_id}`;
    const isFresh = new Set(fresh.map(key));
    const todo = candidates.filter((c) => isFresh.has(key(c))).sort((a, b) => (b.finding.cvss_score ?? 0) - (a.finding.cvss_score ?? 0));
    let alerts = 0;
    for (const c of todo.slice(0, MAX_ALERTS)) {
      const f = c.finding;
      await enqueueAlert(s, {
        kind: "cve.finding",
        severity: c.severity,
        monitor_id: null,
        target_type: c.entity_type,
        target_id: c.entity_id,
        title: `${f.cve_id} (CVSS ${f.cvss_score ?? "n/a"}) affects ${c.name}`,
        body: `${f.cve_id} applies to ${c.entity_type} ${c.entity_id} (${c.name}): ${f.summary ?? ""}`,
        detail: {
          cve_id: f.cve_id,
          cvss_score: f.cvss_score,
          severity: f.severity,
          entity_type: c.entity_type,
          entity_id: c.entity_id,
          feed_generation: generation,
        },
        occurred_at: s.now,
      });
      alerts++;
    }
    if (todo.length > MAX_ALERTS) {
      const rest = todo.length - MAX_ALERTS;
      await enqueueAlert(s, {
        kind: "cve.finding.summary",
        severity: todo.slice(MAX_ALERTS).some((c) => c.severity === "critical") ? "critical" : "warning",
        monitor_id: null,
        target_type: null,
        target_id: null,
        title: `${rest} more CVE finding${rest === 1 ? "" : "s"} of severity warning or above`,
        body: `The CVE feed sync (generation ${generation}) found ${todo.length} new findings; see GET /api/v1/cve/entity/{entity_type}/{entity_id} for each asset.`,
        detail: { feed_generation: generation, total: todo.length },
        occurred_at: s.now,
      });
      alerts++;
    }
    s.audit({
      action: "cve.findings_notified",
      category: "jobs",
      level: "info",
      entity_type: "cve_feed",
      entity_id: String(generation),
      diff: { findings: todo.length, alerts },
    });
    return { alerts, findings: todo.length };
  },
);

export async function notifyNewFindings(
  ctx: VerbContext,
  { generation }: { generation: number },
): Promise<{ alerts: number; findings: number }> {
  const now = ctx.clock.now();
  const feed = await readFeedState(ctx.db, now);
  const assets: ResolvedAsset[] = [];
  for (const type of ENTITY_TYPES) assets.push(...(await resolveAssets(ctx.db, type)));
  const withIdentity = assets.filter((a) => a.identity);
  if (withIdentity.length === 0) return { alerts: 0, findings: 0 };
  const results = await assessMany(
    ctx.db,
    feed,
    withIdentity.map((a) => ({ key: a, identity: a.identity })),
    now,
  );
  const candidates: Candidate[] = [];
  for (const [asset, r] of results)
    for (const f of r.findings) {
      const severity = alertSeverity(f);
      if (severity && !r.uncertain.has(f.cve_id))
        candidates.push({
          entity_type: asset.entity_type,
          entity_id: asset.entity_id,
          name: asset.name,
          cve_id: f.cve_id,
          severity,
          finding: f,
        });
    }
  if (candidates.length === 0) return { alerts: 0, findings: 0 };
  return recordAndAlert({ ctx, input: { candidates, generation } });
}
