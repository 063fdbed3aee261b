// One NVD CVE API 2.0 record (`vulnerabilities[i].cve`) as our rows: the entry (summary in English,
// severity and score from the best metric present: v4.0, v3.1, v3.0, then v2, NVD's "Primary" source
// first) and the flattened cpeMatch criteria indexed by vendor and product for candidate lookups.
import { parseCpe23 } from "./cpe.ts";
import type { NvdConfiguration } from "./applicability.ts";

interface Metric {
  source?: string;
  type?: string;
  cvssData?: { baseScore?: number; baseSeverity?: string; vectorString?: string };
  baseSeverity?: string;
}

export interface NvdCve {
  id: string;
  sourceIdentifier?: string;
  published?: string;
  lastModified: string;
  vulnStatus?: string;
  descriptions?: { lang: string; value: string }[];
  metrics?: Record<string, Metric[] | undefined>;
  configurations?: NvdConfiguration[];
}

export interface CveRow {
  cve_id: string;
  published_at: string | null;
  last_modified_at: string;
  vuln_status: string | null;
  summary: string | null;
  severity: string | null;
  cvss_score: number | null;
  cvss_vector: string | null;
  configurations: NvdConfiguration[];
}

export interface CpeMatchRow {
  cve_id: string;
  config_index: number;
  node_index: number;
  criteria: string;
  part: string;
  vendor: string;
  product: string;
  version: string;
  version_start_including: string | null;
  version_start_excluding: string | null;
  version_end_including: string | null;
  version_end_excluding: string | null;
  vulnerable: boolean;
}

const CVE_ID = /^CVE-\d{4}-\d{4,}$/;
const METRIC_KEYS = ["cvssMetricV40", "cvssMetricV31", "cvssMetricV30", "cvssMetricV2"];
const SEVERITIES = new Set(["critical", "high", "medium", "low", "none"]);

export class NvdRecordError extends Error {
  override name = "NvdRecordError";
}

/** NVD timestamps carry no zone ("2024-07-01T13:15:06.467") and are UTC. */
export function nvdTime(s: string | undefined): string | null {
  if (!s) return null;
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

function bestMetric(metrics: NvdCve["metrics"]): { severity: string | null; score: number | null; vector: string | null } {
  for (const key of METRIC_KEYS) {
    const list = metrics?.[key];
    if (!list?.length) continue;
    const m = list.find((x) => x.type === "Primary") ?? list[0]!;
    const sev = (m.cvssData?.baseSeverity ?? m.baseSeverity ?? "").toLowerCase();
    const score = typeof m.cvssData?.baseScore === "number" ? m.cvssData.baseScore : null;
    return {
      severity: SEVERITIES.has(sev) ? sev : score === null ? null : severityOfScore(score),
      score,
      vector: m.cvssData?.vectorString ?? null,
    };
  }
  return { severity: null, score: null, vector: null };
}

/** CVSS v3 qualitative rating of a base score. */
export function severityOfScore(score: number): string {
  if (score >= 9) return "critical";
  if (score >= 7) return "high";
  if (score >= 4) return "medium";
  if (score > 0) return "low";
  return "none";
}

export const isRejected = (cve: Pick<NvdCve, "vulnStatus">): boolean => cve.vulnStatus === "Rejected";

/** The entry row of a record; throws NvdRecordError for one that is not a CVE record. */
export function toCveRow(cve: NvdCve): CveRow {
  if (typeof cve?.id !== "string" || !CVE_ID.test(cve.id)) throw new NvdRecordError(`Not a CVE id: ${String(cve?.id).slice(0, 40)}`);
  const modified = nvdTime(cve.lastModified);
  if (!modified) throw new NvdRecordError(`${cve.id}: lastModified missing or not a time.`);
  const summary = cve.descriptions?.find((d) => d.lang === "en")?.value ?? cve.descriptions?.[0]?.value ?? null;
  const { severity, score, vector } = bestMetric(cve.metrics);
  return {
    cve_id: cve.id,
    published_at: nvdTime(cve.published),
    last_modified_at: modified,
    vuln_status: cve.vulnStatus ?? null,
    summary,
    severity,
    cvss_score: score,
    cvss_vector: vector,
    configurations: Array.isArray(cve.configurations) ? cve.configurations : [],
  };
}

/** The indexed criteria of a record; a criterion that is not a CPE 2.3 string is left out of the index. */
export function toCpeMatchRows(cve_id: string, configurations: readonly NvdConfiguration[]): CpeMatchRow[] {
  const rows: CpeMatchRow[] = [];
  for (const [ci, c] of configurations.entries()) {
    for (const [ni, n] of (c.nodes ?? []).entries()) {
      for (const m of n.cpeMatch ?? []) {
        let cpe;
        try {
          cpe = parseCpe23(m.criteria);
        } catch {
          continue;
        }
        rows.push({
          cve_id,
          config_index: ci,
          node_index: ni,
          criteria: m.criteria,
          part: cpe.part,
          vendor: cpe.vendor.toLowerCase(),
          product: cpe.product.toLowerCase(),
          version: cpe.version,
          version_start_including: m.versionStartIncluding ?? null,
          version_start_excluding: m.versionStartExcluding ?? null,
          version_end_including: m.versionEndIncluding ?? null,
          version_end_excluding: m.versionEndExcluding ?? null,
          vulnerable: m.vulnerable === true,
        });
      }
    }
  }
  return rows;
}
