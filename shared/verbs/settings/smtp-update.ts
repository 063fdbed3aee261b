// PATCH /settings/smtp's verb. The host must pass the outbound policy, as written and by the addresses it
// resolves to now; the sender checks the resolved address again when it connects. Apart from smtp.ts (the
// section's read) because it answers with the whole settings view (view.ts), which reads through smtp.ts.
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { SmtpPatch, SmtpRead } from "../../schemas/settings-admin.ts";
import { savedHostRefusal } from "../../net/resolved-host.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { defineVerb } from "../verb.ts";
import { changedKeys } from "./apply.ts";
import { SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { lockSection, readSection, secretChanges, writeSection } from "./secret-section.ts";
import { DEFAULTS, type Plain, PLAIN_KEYS, present, readSmtp, SMTP_SECTION } from "./smtp.ts";
import { readSettingsView, type SettingsView } from "./view.ts";
import { vaultOf } from "../verb-context.ts";

/** The last test's outcome is the test's to write (smtp-test.ts), not a client's. */
const PATCHABLE = PLAIN_KEYS.filter((k) => k !== "smtp_last_test_at" && k !== "smtp_last_test_status") as Exclude<
  keyof Plain,
  "smtp_last_test_at" | "smtp_last_test_status"
>[];

function merge(before: Plain, patch: SmtpPatch): Plain {
  const next = { ...before } as Record<string, unknown>;
  for (const k of PATCHABLE) if (patch[k] !== undefined) next[k] = patch[k] ?? DEFAULTS[k];
  // The reference turns SMTP on when a host and sender arrive together without a word about smtp_enabled.
  if (patch.smtp_enabled === undefined && patch.smtp_host && patch.smtp_from_email) next.smtp_enabled = true;
  return next as Plain;
}

function issues(next: Plain, patch: SmtpPatch, policyReason: string | null): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  if (patch.smtp_host && policyReason)
    out.push({ loc: ["body", "smtp_host"], msg: `SMTP host not allowed: ${policyReason}.`, type: "value_error" });
  if (next.smtp_enabled && !next.smtp_host)
    out.push({ loc: ["body", "smtp_host"], msg: "SMTP needs a host before it can be enabled.", type: "value_error" });
  if (next.smtp_enabled && !next.smtp_from_email)
    out.push({ loc: ["body", "smtp_from_email"], msg: "SMTP needs a sender address before it can be enabled.", type: "value_error" });
  return out;
}

export const updateSmtpSettings = defineVerb<SmtpPatch, SettingsView & SmtpRead>({ scope: SETTINGS_WRITE_SCOPE }, async (s, patch) => {
  const vault = vaultOf(s.ctx);
  const secrets = secretChanges(patch, ["smtp_password"]);
  await lockSection(s, vault, secrets);
  const section = await readSection(s.tx, SMTP_SECTION);
  const before = present(section);
  const next = merge(before, patch);
  const policy = await readOutboundPolicy(s.tx);
  const problems = issues(next, patch, patch.smtp_host ? await savedHostRefusal(s.ctx.resolveHost, patch.smtp_host, policy) : null);
  if (problems.length) throw ApiError.validation(problems);
  await writeSection(s, vault, SMTP_SECTION, next, secrets);
  const after = await readSmtp(s.tx);
  const diff = changedKeys(before, after);
  if (diff.keys.length || "smtp_password" in secrets)
    s.audit({
      action: "settings.smtp_updated",
      category: "settings",
      entity_type: "settings",
      entity_id: SMTP_SECTION,
      diff: { before: diff.before, after: diff.after, password_changed: "smtp_password" in secrets },
    });
  return { ...(await readSettingsView(s.tx)), ...after };
});
