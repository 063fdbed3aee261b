// The CVE assessment of assets (GET /cve/entity/{type}/{id}; the alerts after a sync; the bench): the
// candidates of an identity come from the (vendor, product) index of cve_cpe_matches, never a scan of
// every CVE; each candidate's configurations are then evaluated (domain/cve/applicability.ts). A finding
// is a CVE that applies (every criterion decided) or may apply (something could not be decided: no
// version, an unorderable version, a platform condition) to the asset's product; the answer says which
// of these limited it, as the reference's AssessmentResult does.
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/database.ts";
import { assessConfigurations, type Evidence, type NvdConfiguration } from "../../domain/cve/applicability.ts";
import type { FeedState } from "./feed-state.ts";
import type { AssetIdentity } from "./identity.ts";

/** At most this many candidate CVEs are evaluated for one identity (newest first); more is "candidate_limit". */
export const CANDIDATE_LIMIT = 5000;
/** Evidence rows kept per finding. */
const MAX_EVIDENCE = 25;

export type AssessmentState = "unavailable" | "unassessed" | "partial" | "completed" | "stale";
export type ReasonCode =
  | "feed_missing"
  | "feed_incomplete"
  | "feed_stale"
  | "identity_missing"
  | "version_missing"
  | "version_unsupported"
  | "candidate_limit"
  | "completed";

export interface Finding {
  cve_id: string;
  severity: string | null;
  cvss_score: number | null;
  summary: string | null;
  published_at: string | null;
  updated_at: string;
  evidence: Evidence[];
}

export interface AssessmentResult {
  state: AssessmentState;
  reason_code: ReasonCode;
  identity: AssetIdentity | null;
  identity_revision: number | null;
  feed_generation: number;
  feed_age_seconds: number | null;
  assessed_at: string;
  findings: Finding[];
  total: number;
  completeness: "none" | "partial" | "complete";
  limitations: string[];
  items: Finding[];
}

/** The result with what the answer leaves out: the findings that only may apply (something undecided). */
export interface Assessment extends AssessmentResult {
  uncertain: Set<string>;
}

interface Candidate {
  cve_id: string;
  severity: string | null;
  cvss_score: number | null;
  summary: string | null;
  published_at: Date | string | null;
  last_modified_at: Date | string;
  configurations: NvdConfiguration[];
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** The candidate CVEs of one (vendor, product): those with a vulnerable criterion naming it. */
export async function candidates(
  db: Db,
  vendor: string,
  product: string,
  limit = CANDIDATE_LIMIT,
): Promise<{ rows: Candidate[]; limited: boolean }> {
  const rows = await queryRows<Candidate>(
    db,
    sql`select e.cve_id, e.severity, e.cvss_score, e.summary, e.published_at, e.last_modified_at, e.configurations
      from cve_entries e
      where e.cve_id in (select m.cve_id from cve_cpe_matches m where m.vendor = ${vendor} and m.product = ${product} and m.vulnerable group by m.cve_id order by m.cve_id desc limit ${limit + 1})
      order by e.cve_id desc`,
  );
  const limited = rows.length > limit;
  return { rows: limited ? rows.slice(0, limit) : rows, limited };
}

interface Evaluated {
  findings: Finding[];
  uncertain: Set<string>;
  limitations: Set<string>;
  versionMissing: number;
  versionUnsupported: number;
  platform: number;
}

function evaluate(identity: AssetIdentity, rows: readonly Candidate[]): Evaluated {
  const out: Evaluated = {
    findings: [],
    uncertain: new Set(),
    limitations: new Set(),
    versionMissing: 0,
    versionUnsupported: 0,
    platform: 0,
  };
  for (const c of rows) {
    const a = assessConfigurations(c.configurations ?? [], identity);
    if (!a.relevant || a.applies === false) continue;
    if (a.applies === null) {
      out.uncertain.add(c.cve_id);
      const reasons = new Set(a.evidence.filter((e) => e.version_result === "unknown").map((e) => e.reason));
      if (reasons.has("version_missing")) out.versionMissing++;
      if (reasons.has("version_unsupported")) out.versionUnsupported++;
      if (reasons.has("platform_unverifiable")) out.platform++;
    }
    out.findings.push({
      cve_id: c.cve_id,
      severity: c.severity,
      cvss_score: c.cvss_score,
      summary: c.summary,
      published_at: iso(c.published_at),
      updated_at: iso(c.last_modified_at)!,
      evidence: a.evidence.slice(0, MAX_EVIDENCE),
    });
  }
  out.findings.sort((x, y) => (y.cvss_score ?? -1) - (x.cvss_score ?? -1) || (x.cve_id < y.cve_id ? 1 : -1));
  return out;
}

/** One identity's assessment against the feed, given its candidates (looked up once per vendor and product). */
export function assessmentOf(
  identity: AssetIdentity | null,
  feed: FeedState,
  cands: { rows: Candidate[]; limited: boolean } | null,
  now: Date,
): Assessment {
  const base = {
    identity,
    identity_revision: identity?.revision ?? null,
    feed_generation: feed.generation,
    feed_age_seconds: feed.age_seconds,
    assessed_at: now.toISOString(),
  };
  const empty = (state: AssessmentState, reason_code: ReasonCode, limitations: string[]): Assessment => ({
    ...base,
    state,
    reason_code,
    findings: [],
    total: 0,
    completeness: "none",
    limitations,
    items: [],
    uncertain: new Set(),
  });
  if (feed.state === "unavailable")
    return empty("unavailable", "feed_missing", ["No CVE feed has been imported yet (POST /api/v1/cve/sync with cve_feed_sources set)."]);
  if (!identity)
    return empty("unassessed", "identity_missing", [
      "The asset has no identity: set one with PUT /api/v1/cve/identity/{entity_type}/{entity_id}, or fill the inventory fields it is derived from.",
    ]);
  const ev = evaluate(identity, cands?.rows ?? []);
  const limitations: string[] = [];
  if (ev.versionMissing)
    limitations.push(`The asset has no version: ${ev.versionMissing} CVE(s) with version conditions could not be decided.`);
  if (ev.versionUnsupported)
    limitations.push(
      `Versions are compared only in the dotted numeric scheme (1.2.3): ${ev.versionUnsupported} CVE(s) with other version forms (${identity.version ?? "bounds such as 9.3p2"}) could not be decided.`,
    );
  if (ev.platform)
    limitations.push(
      `${ev.platform} CVE(s) apply only on or with a platform (hardware, OS) this identity cannot show; they are listed as possible.`,
    );
  if (cands?.limited) limitations.push(`More than ${CANDIDATE_LIMIT} candidate CVEs: only the newest ${CANDIDATE_LIMIT} were assessed.`);
  if (feed.state === "incomplete")
    limitations.push(`The last feed sync did not complete${feed.last_error ? ` (${feed.last_error})` : ""}: the feed may lack CVEs.`);
  if (feed.state === "stale")
    limitations.push(`The feed is ${Math.floor((feed.age_seconds ?? 0) / 86400)} days old: newer CVEs are missing.`);
  let state: AssessmentState = "completed";
  let reason: ReasonCode = "completed";
  if (feed.state === "incomplete") [state, reason] = ["partial", "feed_incomplete"];
  else if (feed.state === "stale") [state, reason] = ["stale", "feed_stale"];
  else if (cands?.limited) [state, reason] = ["partial", "candidate_limit"];
  else if (ev.versionMissing) [state, reason] = ["partial", "version_missing"];
  else if (ev.versionUnsupported) [state, reason] = ["partial", "version_unsupported"];
  const complete = state === "completed" && ev.platform === 0;
  return {
    ...base,
    state,
    reason_code: reason,
    findings: ev.findings,
    total: ev.findings.length,
    completeness: complete ? "complete" : "partial",
    limitations,
    items: ev.findings,
    uncertain: ev.uncertain,
  };
}

/**
 * Assesses many identities, looking candidates up once per distinct (vendor, product): the path of the
 * alerts after a sync and of the bench.
 */
export async function assessMany<K>(
  db: Db,
  feed: FeedState,
  assets: readonly { key: K; identity: AssetIdentity | null }[],
  now: Date,
): Promise<Map<K, Assessment>> {
  const cache = new Map<string, { rows: Candidate[]; limited: boolean }>();
  const out = new Map<K, Assessment>();
  for (const a of assets) {
    let cands = null;
    if (a.identity && feed.state !== "unavailable") {
      const k = `${a.identity.vendor}\u0000${a.identity.product}`;
      cands = cache.get(k) ?? null;
      if (!cands) {
        cands = await candidates(db, a.identity.vendor, a.identity.product);
        cache.set(k, cands);
      }
    }
    out.set(a.key, assessmentOf(a.identity, feed, cands, now));
  }
  return out;
}
