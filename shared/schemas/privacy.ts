// Request and response shapes of the privacy and threat analysis (spec/catalogue.tsv, group privacy and threat analysis): the
// reference's fields exactly, plus fields that explain them (evidence, remediation text, counts).
import * as v from "valibot";
import { MAX_INT4, Ref } from "./fields.ts";
import { queryInt } from "./list-query.ts";

const Str = v.nullable(v.string());
const Severity = v.picklist(["info", "warning", "critical"]);
const CheckStatus = v.picklist(["ok", "info", "warning", "critical", "unknown"]);

export const Deduction = v.object({
  rule_id: v.string(),
  title: v.string(),
  points: v.pipe(v.number(), v.description("Points deducted (gateways x1.5).")),
  severity: Severity,
  remediation_id: v.string(),
  hardware_id: v.number(),
  category: v.string(),
  check_id: v.pipe(v.string(), v.description("<rule_id>:hw-<hardware_id>, stable across snapshots.")),
  hardware_name: v.string(),
  remediation: v.string(),
  evidence: v.string(),
  ports: v.array(v.number()),
  gateway: v.boolean(),
  detected_at: v.string(),
});

export const Check = v.object({
  check_id: v.string(),
  rule_id: Str,
  title: v.string(),
  category: v.string(),
  status: CheckStatus,
  evidence: v.string(),
  detected_at: v.string(),
  hardware_id: v.nullable(v.number()),
  ignored: v.boolean(),
});

export const PrivacyScore = v.object({
  enabled: v.boolean(),
  score: v.nullable(v.number()),
  grade: v.nullable(v.picklist(["A", "B", "C", "D", "F"])),
  critical_count: v.optional(v.number()),
  warning_count: v.optional(v.number()),
  info_count: v.optional(v.number()),
  deductions: v.array(Deduction),
  ignored: v.pipe(v.array(Deduction), v.description("Findings an ignore excludes from the score.")),
  checks: v.array(Check),
  checked_at: Str,
  snapshot_id: v.nullable(v.number()),
  trigger: Str,
  history: v.pipe(v.array(v.object({ score: v.number(), at: v.string() })), v.description("The last 30 snapshots, newest first.")),
});

export const PrivacyHistoryQuery = v.object({
  days: v.pipe(
    queryInt(30, 1),
    v.transform((n) => Math.min(n, 90)),
    v.description("Days back including today (default 30, clamped to 90)."),
  ),
});

export const PrivacyHistory = v.object({
  enabled: v.boolean(),
  days: v.array(
    v.object({ date: v.string(), score: v.number(), critical_count: v.number(), warning_count: v.number(), info_count: v.number() }),
  ),
});

export const ThreatAlerts = v.object({
  enabled: v.boolean(),
  status: v.picklist(["critical", "warning", "safe", "unknown"]),
  alerts: v.array(
    v.object({
      check_id: v.string(),
      severity: v.picklist(["warning", "critical"]),
      detail: v.string(),
      detected_at: v.string(),
      rule_id: Str,
      hardware_id: v.nullable(v.number()),
      title: v.string(),
    }),
  ),
  checked_at: Str,
});

export const ThreatProfile = v.object({
  hardware_id: v.number(),
  name: v.string(),
  score: v.nullable(v.number()),
  grade: v.nullable(v.picklist(["A", "B", "C", "D", "F"])),
  deductions: v.array(Deduction),
  ignored: v.array(Deduction),
  checked_at: Str,
});

export const AttackSurface = v.object({
  enabled: v.boolean(),
  attack_surface: v.array(
    v.object({
      hardware_id: v.number(),
      name: v.string(),
      ip_address: Str,
      role: Str,
      vendor_icon_slug: Str,
      custom_icon: Str,
      ports: v.array(v.looseObject({ port: v.number(), protocol: v.string() })),
      open_ports_json: v.pipe(v.string(), v.description("ports as a JSON string (the reference's field)")),
      seen_at: Str,
      scan_job_id: v.nullable(v.number()),
    }),
  ),
});

export const Ignores = v.object({ ignores: v.array(v.object({ rule_id: v.string(), hardware_id: v.nullable(v.number()) })) });

const RuleId = v.pipe(v.string(), v.minLength(1, "Must not be empty."), v.maxLength(100));

export const IgnoreBody = v.strictObject({ rule_id: RuleId, hardware_id: v.optional(v.nullable(Ref), null) });
/** POST /privacy-findings/ignore's answer (201 also when the ignore exists). */
export const IgnoreAdded = v.object({ ok: v.literal(true) });

export const IgnoreQuery = v.object({
  rule_id: RuleId,
  hardware_id: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(\d{1,10}|null|)$/, "Must be an integer id (or empty for the rule's network-wide ignore)."),
      v.transform((s) => (s === "" || s === "null" ? null : Number(s))),
      v.check((n) => n === null || (n >= 1 && n <= MAX_INT4), "Must be a positive integer id."),
    ),
  ),
});

export const RefreshAnswer = v.object({
  enabled: v.boolean(),
  snapshot_id: v.nullable(v.number()),
  checked_at: Str,
  score: v.nullable(v.number()),
  grade: Str,
  findings: v.number(),
  new_findings: v.number(),
});
