// The analysis itself, pure: the rules over every device (one finding per rule and device, its hits'
// evidence joined; gateways weighted x1.5 and one severity step up), the checks list (each finding, each
// rule that found nothing, the network checks), and the score: 100 minus the points of the findings not
// ignored, bounded to 0..100, graded A >= 90, B >= 80, C >= 70, D >= 60, else F.
import { DEVICE_RULES, NETWORK_CHECKS } from "./rules/index.ts";
import { type DeviceFacts, type DeviceRule, isGateway, type Severity } from "./rules/types.ts";

export const GATEWAY_WEIGHT = 1.5;

export interface Finding {
  /** `<rule_id>:hw-<hardware_id>`: the identity a finding keeps across snapshots. */
  check_id: string;
  rule_id: string;
  title: string;
  points: number;
  severity: Severity;
  remediation_id: string;
  remediation: string;
  hardware_id: number;
  hardware_name: string;
  category: string;
  evidence: string;
  ports: number[];
  gateway: boolean;
  /** When it was first seen in an unbroken run of snapshots (kept from the previous snapshot). */
  detected_at: string;
  ignored: boolean;
}

export type CheckStatus = "ok" | "info" | "warning" | "critical" | "unknown";

export interface Check {
  check_id: string;
  rule_id: string | null;
  title: string;
  category: string;
  status: CheckStatus;
  evidence: string;
  detected_at: string;
  hardware_id: number | null;
  ignored: boolean;
}

export interface Ignore {
  rule_id: string;
  hardware_id: number | null;
}

export interface Summary {
  score: number;
  grade: "A" | "B" | "C" | "D" | "F";
  critical_count: number;
  warning_count: number;
  info_count: number;
}

const ESCALATE: Record<Severity, Severity> = { info: "warning", warning: "critical", critical: "critical" };

export const findingId = (ruleId: string, hardwareId: number): string => `${ruleId}:hw-${hardwareId}`;

export function isIgnored(ignores: readonly Ignore[], ruleId: string, hardwareId: number | null): boolean {
  return ignores.some((i) => i.rule_id === ruleId && (i.hardware_id === null || i.hardware_id === hardwareId));
}

export function gradeOf(score: number): Summary["grade"] {
  return score >= 90 ? "A" : score >= 80 ? "B" : score >= 70 ? "C" : score >= 60 ? "D" : "F";
}

/** Score, grade and counts of the findings that are not ignored. */
export function summarize(findings: readonly Pick<Finding, "points" | "severity" | "ignored">[]): Summary {
  const counted = findings.filter((f) => !f.ignored);
  const deducted = counted.reduce((sum, f) => sum + f.points, 0);
  const score = Math.max(0, Math.min(100, Math.round(100 - deducted)));
  const count = (s: Severity) => counted.filter((f) => f.severity === s).length;
  return { score, grade: gradeOf(score), critical_count: count("critical"), warning_count: count("warning"), info_count: count("info") };
}

function findingOf(
  rule: DeviceRule,
  d: DeviceFacts,
  now: string,
  previous: ReadonlyMap<string, string>,
  ignores: readonly Ignore[],
): Finding | null {
  const gateway = isGateway(d);
  if (rule.gatewayOnly && !gateway) return null;
  const hits = rule.match(d);
  if (hits.length === 0) return null;
  const check_id = findingId(rule.id, d.hardware_id);
  return {
    check_id,
    rule_id: rule.id,
    title: rule.title,
    points: gateway ? rule.points * GATEWAY_WEIGHT : rule.points,
    severity: gateway ? ESCALATE[rule.severity] : rule.severity,
    remediation_id: rule.remediation.id,
    remediation: rule.remediation.text,
    hardware_id: d.hardware_id,
    hardware_name: d.name,
    category: rule.category,
    evidence: hits
      .map((h) => h.evidence)
      .join("; ")
      .slice(0, 2000),
    ports: [...new Set(hits.map((h) => h.port).filter((p): p is number => p !== null))],
    gateway,
    detected_at: previous.get(check_id) ?? now,
    ignored: isIgnored(ignores, rule.id, d.hardware_id),
  };
}

export interface Analysis extends Summary {
  findings: Finding[];
  checks: Check[];
}

/**
 * Runs every rule over `devices`. `previous` maps the check ids of the previous snapshot to when they were
 * first detected, so a finding that stays keeps its date; `now` is an ISO time.
 */
export function analyse(
  devices: readonly DeviceFacts[],
  ignores: readonly Ignore[],
  now: string,
  previous: ReadonlyMap<string, string> = new Map(),
): Analysis {
  const findings: Finding[] = [];
  for (const rule of DEVICE_RULES)
    for (const d of devices) {
      const f = findingOf(rule, d, now, previous, ignores);
      if (f) findings.push(f);
    }
  const anyScanned = devices.some((d) => d.scanned);
  const checks: Check[] = findings.map((f) => ({
    check_id: f.check_id,
    rule_id: f.rule_id,
    title: f.title,
    category: f.category,
    status: f.severity,
    evidence: f.evidence,
    detected_at: f.detected_at,
    hardware_id: f.hardware_id,
    ignored: f.ignored,
  }));
  for (const rule of DEVICE_RULES) {
    if (findings.some((f) => f.rule_id === rule.id)) continue;
    checks.push({
      check_id: rule.id,
      rule_id: rule.id,
      title: rule.title,
      category: rule.category,
      status: anyScanned ? "ok" : "unknown",
      evidence: anyScanned ? "No scanned device matched." : "No device has been port-scanned yet.",
      detected_at: previous.get(rule.id) ?? now,
      hardware_id: null,
      ignored: isIgnored(ignores, rule.id, null),
    });
  }
  for (const check of NETWORK_CHECKS) {
    const { status, evidence } = check.evaluate([...devices]);
    checks.push({
      check_id: check.id,
      rule_id: null,
      title: check.title,
      category: check.category,
      status,
      evidence,
      detected_at: previous.get(check.id) ?? now,
      hardware_id: null,
      ignored: false,
    });
  }
  return { ...summarize(findings), findings, checks };
}

/** The findings and checks of a stored analysis with today's ignores applied, and its summary again. */
export function withIgnores(stored: { findings: Finding[]; checks: Check[] }, ignores: readonly Ignore[]): Analysis {
  const findings = stored.findings.map((f) => ({ ...f, ignored: isIgnored(ignores, f.rule_id, f.hardware_id) }));
  const checks = stored.checks.map((c) => (c.rule_id === null ? c : { ...c, ignored: isIgnored(ignores, c.rule_id, c.hardware_id) }));
  return { ...summarize(findings), findings, checks };
}
