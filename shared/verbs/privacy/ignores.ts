// Ignores (spec/catalogue.tsv, group privacy and threat analysis): a rule for every device (hardware_id null) or for one device.
// Ignored findings stay in the snapshots, flagged, and leave the score, the counts and the alerts; they
// apply at once to what the reads answer (the newest snapshot is re-scored with the ignores in force).
// Adding is idempotent (201 {ok: true} either way), removing an absent ignore is a no-op; each change
// that happened is audited.
import { and, eq, isNull } from "drizzle-orm";
import { hardware, privacyIgnores } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { defineRead, defineVerb, type VerbScope } from "../verb.ts";
import { readIgnores } from "./snapshots.ts";
import { DEVICE_RULES, RULE_IDS } from "./rules/index.ts";
import { ADMIN_PRIVACY, READ_PRIVACY } from "./scopes.ts";

export interface IgnoreInput {
  rule_id: string;
  hardware_id: number | null;
  /** Where the rule id came from, for the 422's loc ("body" or "query"). */
  from: "body" | "query";
}

function requireRule(input: IgnoreInput): void {
  if (RULE_IDS.has(input.rule_id)) return;
  throw ApiError.validation([
    {
      loc: [input.from, "rule_id"],
      msg: `Unknown privacy rule "${input.rule_id.slice(0, 100)}". Known rules: ${DEVICE_RULES.map((r) => r.id).join(", ")}.`,
      type: "unknown_rule",
    },
  ]);
}

const sameIgnore = (input: IgnoreInput) =>
  and(
    eq(privacyIgnores.rule_id, input.rule_id),
    input.hardware_id === null ? isNull(privacyIgnores.hardware_id) : eq(privacyIgnores.hardware_id, input.hardware_id),
  );

function auditIgnore(s: VerbScope, action: string, input: IgnoreInput): void {
  s.audit({
    action,
    category: "privacy",
    entity_type: "privacy_ignore",
    entity_id: `${input.rule_id}:${input.hardware_id ?? "*"}`,
    diff: { rule_id: input.rule_id, hardware_id: input.hardware_id },
  });
}

export const listIgnores = defineRead({ scope: READ_PRIVACY }, async (ctx) => ({ ignores: await readIgnores(ctx.db) }));

export const addIgnore = defineVerb({ scope: ADMIN_PRIVACY }, async (s, input: IgnoreInput) => {
  requireRule(input);
  if (input.hardware_id !== null) {
    const [hw] = await s.tx.select({ id: hardware.id }).from(hardware).where(eq(hardware.id, input.hardware_id)).for("share");
    if (!hw) throw ApiError.notFound("Hardware", input.hardware_id);
  }
  const added = await s.tx
    .insert(privacyIgnores)
    .values({ rule_id: input.rule_id, hardware_id: input.hardware_id, created_at: s.now })
    .onConflictDoNothing()
    .returning({ id: privacyIgnores.id });
  if (added.length > 0) auditIgnore(s, "privacy.ignore", input);
  return { ok: true as const };
});

export const removeIgnore = defineVerb({ scope: ADMIN_PRIVACY }, async (s, input: IgnoreInput) => {
  requireRule(input);
  const removed = await s.tx.delete(privacyIgnores).where(sameIgnore(input)).returning({ id: privacyIgnores.id });
  if (removed.length > 0) auditIgnore(s, "privacy.unignore", input);
  return { removed: removed.length };
});
