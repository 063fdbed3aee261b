// The reads of the privacy analysis (spec/catalogue.tsv, group privacy and threat analysis), all from the newest snapshot re-scored
// with the ignores in force, except the attack surface, which lists what discovery knows now. With the
// analysis turned off (setting privacy_analysis_enabled) or before the first snapshot, each answers its
// empty shape with 200, never an error.
import { desc, eq, inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { hardware, privacySnapshots } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { readSetting } from "../../settings/read.ts";
import { defineRead } from "../verb.ts";
import { type Analysis, type Finding, summarize, withIgnores } from "./evaluate.ts";
import { readDeviceFacts } from "./facts.ts";
import { READ_PRIVACY } from "./scopes.ts";
import { latestSnapshot, readIgnores, type SnapshotRow, storedAnalysis } from "./snapshots.ts";

/** How many past scores GET /network/privacy-score lists. */
const HISTORY_ITEMS = 30;
export const MAX_HISTORY_DAYS = 90;

const iso = (d: Date) => d.toISOString();

/** The deduction shape of the reference, plus what explains it. */
function deduction(f: Finding) {
  return {
    rule_id: f.rule_id,
    title: f.title,
    points: f.points,
    severity: f.severity,
    remediation_id: f.remediation_id,
    hardware_id: f.hardware_id,
    category: f.category,
    check_id: f.check_id,
    hardware_name: f.hardware_name,
    remediation: f.remediation,
    evidence: f.evidence,
    ports: f.ports,
    gateway: f.gateway,
    detected_at: f.detected_at,
  };
}

interface Current {
  row: SnapshotRow;
  analysis: Analysis;
}

/**
 * The newest snapshot with today's ignores, or null when the analysis is off or has never run. Findings
 * and checks of hardware deleted since the snapshot are left out (their device is gone, and so is the risk).
 */
async function current(db: Db): Promise<Current | null> {
  if (!(await readSetting(db, "privacy_analysis_enabled"))) return null;
  const row = await latestSnapshot(db);
  if (!row) return null;
  const stored = storedAnalysis(row);
  const ids = [...new Set(stored.findings.map((f) => f.hardware_id))];
  const live = new Set(
    ids.length === 0 ? [] : (await db.select({ id: hardware.id }).from(hardware).where(inArray(hardware.id, ids))).map((h) => h.id),
  );
  const kept = {
    findings: stored.findings.filter((f) => live.has(f.hardware_id)),
    checks: stored.checks.filter((c) => c.hardware_id === null || live.has(c.hardware_id)),
  };
  return { row, analysis: withIgnores(kept, await readIgnores(db)) };
}

export const readPrivacyScore = defineRead({ scope: READ_PRIVACY }, async (ctx) => {
  const enabled = await readSetting(ctx.db, "privacy_analysis_enabled");
  const now = enabled ? await current(ctx.db) : null;
  if (!now)
    return {
      enabled,
      score: null,
      grade: null,
      deductions: [],
      ignored: [],
      checks: [],
      checked_at: null,
      snapshot_id: null,
      trigger: null,
      history: [],
    };
  const history = await ctx.db
    .select({ score: privacySnapshots.score, at: privacySnapshots.taken_at })
    .from(privacySnapshots)
    .orderBy(desc(privacySnapshots.taken_at), desc(privacySnapshots.id))
    .limit(HISTORY_ITEMS);
  const { analysis: a, row } = now;
  return {
    enabled,
    score: a.score,
    grade: a.grade,
    critical_count: a.critical_count,
    warning_count: a.warning_count,
    info_count: a.info_count,
    deductions: a.findings.filter((f) => !f.ignored).map(deduction),
    ignored: a.findings.filter((f) => f.ignored).map(deduction),
    checks: a.checks,
    checked_at: iso(row.taken_at),
    snapshot_id: row.id,
    trigger: row.trigger,
    history: history.map((h) => ({ score: h.score, at: iso(h.at) })),
  };
});

export const readPrivacyHistory = defineRead({ scope: READ_PRIVACY }, async (ctx, input: { days: number }) => {
  const days = Math.min(Math.max(1, input.days), MAX_HISTORY_DAYS);
  if (!(await readSetting(ctx.db, "privacy_analysis_enabled"))) return { enabled: false, days: [] };
  const today = ctx.clock.now();
  const since = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1)));
  const rows = await queryRows<{ date: string; score: number; critical_count: number; warning_count: number; info_count: number }>(
    ctx.db,
    sql`
    select distinct on (d) d as date, score, critical_count, warning_count, info_count from (
      select to_char(taken_at at time zone 'UTC', 'YYYY-MM-DD') as d, * from privacy_snapshots where taken_at >= ${since.toISOString()}::timestamptz
    ) s order by d, taken_at desc, id desc`,
  );
  return { enabled: true, days: rows };
});

export const readThreatAlerts = defineRead({ scope: READ_PRIVACY }, async (ctx) => {
  const enabled = await readSetting(ctx.db, "privacy_analysis_enabled");
  const now = enabled ? await current(ctx.db) : null;
  if (!now) return { enabled, status: "unknown" as const, alerts: [], checked_at: null };
  const alerts = now.analysis.checks
    .filter((c) => !c.ignored && (c.status === "warning" || c.status === "critical"))
    .map((c) => ({
      check_id: c.check_id,
      severity: c.status as "warning" | "critical",
      detail: `${c.title}: ${c.evidence}`,
      detected_at: c.detected_at,
      rule_id: c.rule_id,
      hardware_id: c.hardware_id,
      title: c.title,
    }))
    .sort((x, y) => (x.severity === y.severity ? x.check_id.localeCompare(y.check_id) : x.severity === "critical" ? -1 : 1));
  const status = alerts.some((a) => a.severity === "critical") ? "critical" : alerts.length > 0 ? "warning" : "safe";
  return { enabled, status: status as "critical" | "warning" | "safe", alerts, checked_at: iso(now.row.taken_at) };
});

export const readThreatProfile = defineRead({ scope: READ_PRIVACY }, async (ctx, input: { hardware_id: number }) => {
  const [hw] = await ctx.db
    .select({ id: hardware.id, name: hardware.name, created_at: hardware.created_at })
    .from(hardware)
    .where(eq(hardware.id, input.hardware_id));
  if (!hw) throw ApiError.notFound("Hardware", input.hardware_id);
  const now = await current(ctx.db);
  // A node added after the newest snapshot has not been analysed yet: no score rather than a clean 100.
  if (!now || hw.created_at > now.row.taken_at)
    return {
      hardware_id: hw.id,
      name: hw.name,
      score: null,
      grade: null,
      deductions: [],
      ignored: [],
      checked_at: now ? iso(now.row.taken_at) : null,
    };
  const mine = now.analysis.findings.filter((f) => f.hardware_id === hw.id);
  const s = summarize(mine);
  return {
    hardware_id: hw.id,
    name: hw.name,
    score: s.score,
    grade: s.grade,
    deductions: mine.filter((f) => !f.ignored).map(deduction),
    ignored: mine.filter((f) => f.ignored).map(deduction),
    checked_at: iso(now.row.taken_at),
  };
});

export const readAttackSurface = defineRead({ scope: READ_PRIVACY }, async (ctx) => {
  if (!(await readSetting(ctx.db, "privacy_analysis_enabled"))) return { enabled: false, attack_surface: [] };
  const devices = (await readDeviceFacts(ctx.db)).filter((d) => d.ports.length > 0);
  return {
    enabled: true,
    attack_surface: devices.map((d) => ({
      hardware_id: d.hardware_id,
      name: d.name,
      ip_address: d.ip_address,
      role: d.role,
      vendor_icon_slug: d.vendor_catalog_key,
      custom_icon: null,
      ports: d.ports,
      open_ports_json: JSON.stringify(d.ports),
      seen_at: d.seen_at,
      scan_job_id: d.scan_job_id,
    })),
  };
});
