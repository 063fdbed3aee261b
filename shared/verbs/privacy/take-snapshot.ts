// A privacy snapshot: the rules over what discovery knows now, stored with its score, findings (ignored
// ones flagged) and checks. Taken after each discovery run, by the daily job and on demand
// (POST /network/privacy-score/refresh). Findings of severity warning or above that the previous
// snapshot did not have go to the notification routes, once per rule and device, in the same
// transaction (an alert exists only if the snapshot committed). Snapshots are taken one at a time (a
// transaction-scoped advisory lock), so two at once never both announce the same new finding.
import { sql } from "drizzle-orm";
import { privacySnapshots } from "../../db/schema/index.ts";
import { readSetting } from "../../settings/read.ts";
import { enqueueAlert } from "../notifications/enqueue-alert.ts";
import { defineVerb, type VerbScope } from "../verb.ts";
import { analyse, type Finding } from "./evaluate.ts";
import { readDeviceFacts } from "./facts.ts";
import { REFRESH_PRIVACY } from "./scopes.ts";
import { latestSnapshot, readIgnores, storedAnalysis } from "./snapshots.ts";

/** Alerts per snapshot before the rest are folded into one summary alert. */
export const MAX_ALERTS = 20;

export type SnapshotTrigger = "manual" | "discovery" | "schedule";

export interface SnapshotInput {
  trigger: SnapshotTrigger;
  scan_job_id?: number | null;
}

export interface SnapshotOutcome {
  enabled: boolean;
  snapshot_id: number | null;
  checked_at: string | null;
  score: number | null;
  grade: string | null;
  findings: number;
  new_findings: number;
}

const DISABLED: SnapshotOutcome = {
  enabled: false,
  snapshot_id: null,
  checked_at: null,
  score: null,
  grade: null,
  findings: 0,
  new_findings: 0,
};

async function announce(s: VerbScope, fresh: Finding[], snapshotId: number): Promise<void> {
  for (const f of fresh.slice(0, MAX_ALERTS)) {
    await enqueueAlert(s, {
      kind: "privacy.finding",
      severity: f.severity,
      monitor_id: null,
      target_type: "hardware",
      target_id: f.hardware_id,
      title: `${f.title} on ${f.hardware_name}`,
      body: `${f.evidence}. Remediation: ${f.remediation}`,
      detail: {
        snapshot_id: snapshotId,
        check_id: f.check_id,
        rule_id: f.rule_id,
        hardware_id: f.hardware_id,
        points: f.points,
        category: f.category,
        remediation_id: f.remediation_id,
        ports: f.ports,
      },
      occurred_at: s.now,
    });
  }
  if (fresh.length > MAX_ALERTS) {
    const rest = fresh.length - MAX_ALERTS;
    await enqueueAlert(s, {
      kind: "privacy.finding.summary",
      severity: fresh.slice(MAX_ALERTS).some((f) => f.severity === "critical") ? "critical" : "warning",
      monitor_id: null,
      target_type: null,
      target_id: null,
      title: `Privacy analysis: ${rest} more new finding${rest === 1 ? "" : "s"}`,
      body: `Snapshot ${snapshotId} found ${fresh.length} new findings of severity warning or above; see GET /api/v1/network/threat-alerts.`,
      detail: { snapshot_id: snapshotId, total: fresh.length },
      occurred_at: s.now,
    });
  }
}

/** Takes a snapshot in `s`'s transaction; answers DISABLED (and stores nothing) when the analysis is off. */
export async function snapshotIn(s: VerbScope, input: SnapshotInput): Promise<SnapshotOutcome> {
  if (!(await readSetting(s.tx, "privacy_analysis_enabled"))) return DISABLED;
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext('privacy_snapshot'))`);
  const devices = await readDeviceFacts(s.tx);
  const ignores = await readIgnores(s.tx);
  const prev = await latestSnapshot(s.tx);
  const before = prev ? storedAnalysis(prev) : { findings: [], checks: [] };
  const firstSeen = new Map([...before.checks, ...before.findings].map((c) => [c.check_id, c.detected_at]));
  const now = s.now.toISOString();
  const a = analyse(devices, ignores, now, firstSeen);
  const [row] = await s.tx
    .insert(privacySnapshots)
    .values({
      taken_at: s.now,
      score: a.score,
      grade: a.grade,
      critical_count: a.critical_count,
      warning_count: a.warning_count,
      info_count: a.info_count,
      deductions: a.findings,
      checks: a.checks,
      trigger: input.trigger,
      scan_job_id: input.scan_job_id ?? null,
    })
    .returning({ id: privacySnapshots.id });
  const known = new Set(before.findings.map((f) => f.check_id));
  const fresh = a.findings.filter((f) => !f.ignored && f.severity !== "info" && !known.has(f.check_id));
  await announce(s, fresh, row!.id);
  return {
    enabled: true,
    snapshot_id: row!.id,
    checked_at: now,
    score: a.score,
    grade: a.grade,
    findings: a.findings.length,
    new_findings: fresh.length,
  };
}

/** A snapshot the system takes (after a discovery run, the daily job): not audited, like the other workers' writes. */
export const takePrivacySnapshot = defineVerb({ scope: REFRESH_PRIVACY }, async (s, input: SnapshotInput) => snapshotIn(s, input));

/** POST /network/privacy-score/refresh: a snapshot now, audited as the caller's. */
export const refreshPrivacyScore = defineVerb({ scope: REFRESH_PRIVACY }, async (s) => {
  const out = await snapshotIn(s, { trigger: "manual" });
  if (out.enabled)
    s.audit({
      action: "privacy.refresh",
      category: "privacy",
      entity_type: "privacy_snapshot",
      entity_id: out.snapshot_id,
      diff: { score: out.score, grade: out.grade, findings: out.findings, new_findings: out.new_findings },
    });
  return out;
});
