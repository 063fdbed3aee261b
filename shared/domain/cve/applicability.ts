// Whether a CVE applies to one asset identity, from NVD's `configurations` (CVE API 2.0): each
// configuration is nodes joined by its operator (AND when given, else OR); each node is cpeMatch criteria
// joined by the node's operator, possibly negated. Evaluation is three-valued (true, false, unknown):
// - a criterion naming the asset's vendor and product is checked by version (exact version in the CPE, or
//   the including/excluding range bounds); no version on the asset or an unorderable scheme is unknown;
// - a vulnerable criterion naming another product is false (it is not this asset);
// - a `vulnerable:false` criterion naming another product is a platform condition ("running on/with"
//   that hardware or OS) we cannot check from one identity: unknown, reported as a limitation.
import { CPE_ANY, CPE_NA, type Cpe23, isSpecific, parseCpe23 } from "./cpe.ts";
import { compareAsset, hasBounds, inRange, versionScheme, type VersionScheme } from "./version.ts";

export interface NvdCpeMatch {
  vulnerable: boolean;
  criteria: string;
  matchCriteriaId?: string;
  versionStartIncluding?: string;
  versionStartExcluding?: string;
  versionEndIncluding?: string;
  versionEndExcluding?: string;
}

export interface NvdNode {
  operator?: "AND" | "OR";
  negate?: boolean;
  cpeMatch?: NvdCpeMatch[];
}

export interface NvdConfiguration {
  operator?: "AND" | "OR";
  negate?: boolean;
  nodes?: NvdNode[];
}

export interface Identity {
  vendor: string;
  product: string;
  version: string | null;
}

export type VersionResult = "match" | "no_match" | "unknown";

export type EvidenceReason =
  | "version_any"
  | "version_not_applicable"
  | "version_equal"
  | "version_differs"
  | "version_in_range"
  | "version_out_of_range"
  | "version_missing"
  | "version_unsupported"
  | "platform_unverifiable"
  | "criteria_invalid";

export interface Evidence {
  criteria: string;
  vendor: string;
  product: string;
  vulnerable: boolean;
  version_result: VersionResult;
  reason: EvidenceReason;
}

type Tri = boolean | null;

const triAnd = (xs: Tri[]): Tri => (xs.some((x) => x === false) ? false : xs.some((x) => x === null) ? null : true);
const triOr = (xs: Tri[]): Tri => (xs.some((x) => x === true) ? true : xs.some((x) => x === null) ? null : false);
const triNot = (x: Tri): Tri => (x === null ? null : !x);

function toResult(t: Tri): VersionResult {
  return t === true ? "match" : t === false ? "no_match" : "unknown";
}

/** The version check of one criterion that names the asset's product. */
export function checkVersion(cpe: Cpe23, m: NvdCpeMatch, version: string | null): { result: Tri; reason: EvidenceReason } {
  const range = {
    start_including: m.versionStartIncluding,
    start_excluding: m.versionStartExcluding,
    end_including: m.versionEndIncluding,
    end_excluding: m.versionEndExcluding,
  };
  if (cpe.version === CPE_NA) return { result: true, reason: "version_not_applicable" };
  if (cpe.version === CPE_ANY && !hasBounds(range)) return { result: true, reason: "version_any" };
  if (version == null || version.trim() === "") return { result: null, reason: "version_missing" };
  const v = version.trim();
  if (cpe.version !== CPE_ANY) {
    const full = isSpecific(cpe.update)
      ? [cpe.version + cpe.update, `${cpe.version}-${cpe.update}`, `${cpe.version}_${cpe.update}`, `${cpe.version}.${cpe.update}`]
      : [cpe.version];
    if (full.some((f) => f.toLowerCase() === v.toLowerCase())) return { result: true, reason: "version_equal" };
    const c = compareAsset(v, cpe.version);
    if (c === null) return { result: null, reason: "version_unsupported" };
    // Same numeric version with an update qualifier (9.3 with update p1) we cannot compare: unknown.
    if (c === 0 && isSpecific(cpe.update)) return { result: null, reason: "version_unsupported" };
    return c === 0 ? { result: true, reason: "version_equal" } : { result: false, reason: "version_differs" };
  }
  const r = inRange(v, range);
  if (r === null) return { result: null, reason: "version_unsupported" };
  return r ? { result: true, reason: "version_in_range" } : { result: false, reason: "version_out_of_range" };
}

export interface Applicability {
  /** true: applies; false: does not; null: could apply, something could not be checked. */
  applies: Tri;
  /** Whether some vulnerable criterion names the asset's vendor and product (the CVE is about it). */
  relevant: boolean;
  evidence: Evidence[];
}

/** Evaluates every configuration of a CVE against one identity. */
export function assessConfigurations(configurations: readonly NvdConfiguration[], id: Identity): Applicability {
  const evidence: Evidence[] = [];
  let relevant = false;
  const evalMatch = (m: NvdCpeMatch): Tri => {
    let cpe: Cpe23;
    try {
      cpe = parseCpe23(m.criteria);
    } catch {
      evidence.push({
        criteria: m.criteria,
        vendor: "",
        product: "",
        vulnerable: m.vulnerable,
        version_result: "unknown",
        reason: "criteria_invalid",
      });
      return null;
    }
    const vendor = cpe.vendor.toLowerCase();
    const product = cpe.product.toLowerCase();
    const same = (vendor === CPE_ANY || vendor === id.vendor) && (product === CPE_ANY || product === id.product);
    if (!same) {
      if (m.vulnerable) return false;
      evidence.push({
        criteria: m.criteria,
        vendor,
        product,
        vulnerable: false,
        version_result: "unknown",
        reason: "platform_unverifiable",
      });
      return null;
    }
    if (m.vulnerable) relevant = true;
    const { result, reason } = checkVersion(cpe, m, id.version);
    evidence.push({ criteria: m.criteria, vendor, product, vulnerable: m.vulnerable, version_result: toResult(result), reason });
    return result;
  };
  const evalNode = (n: NvdNode): Tri => {
    const xs = (n.cpeMatch ?? []).map(evalMatch);
    const r = n.operator === "AND" ? triAnd(xs) : triOr(xs);
    return n.negate ? triNot(r) : r;
  };
  const results = configurations.map((c) => {
    const xs = (c.nodes ?? []).map(evalNode);
    const r = c.operator === "AND" ? triAnd(xs) : triOr(xs);
    return c.negate ? triNot(r) : r;
  });
  return { applies: triOr(results), relevant, evidence };
}

export { versionScheme, type VersionScheme };
