// PATCH /settings/acme-dns's verb, apart from acme-dns.ts (the section's read) because it answers with the
// whole settings view (view.ts), which reads the section through acme-dns.ts.
import { ApiError, type ValidationIssue } from "../../errors.ts";
import type { AcmeDnsPatch, AcmeDnsRead } from "../../schemas/settings-admin.ts";
import { defineVerb } from "../verb.ts";
import { ACME_DNS_SECTION, PLAIN_DEFAULTS, present, PROVIDERS, readAcmeDns } from "./acme-dns.ts";
import { SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { dropSectionSecrets, lockSection, readSection, secretChanges, writeSection } from "./secret-section.ts";
import { readSettingsView, type SettingsView } from "./view.ts";
import { vaultOf } from "../verb-context.ts";

export const updateAcmeDnsSettings = defineVerb<AcmeDnsPatch, SettingsView & AcmeDnsRead>(
  { scope: SETTINGS_WRITE_SCOPE },
  async (s, patch) => {
    const vault = vaultOf(s.ctx);
    const spec = patch.provider ? PROVIDERS[patch.provider] : null;
    const allowed = new Set(spec ? [...spec.plain, ...spec.secrets, ...spec.secrets.map((k) => `${k}_set`)] : []);
    const problems: ValidationIssue[] = Object.keys(patch)
      .filter((k) => k !== "provider" && patch[k as keyof AcmeDnsPatch] !== undefined && !allowed.has(k))
      .map((k) => ({ loc: ["body", k], msg: `"${k}" is not a field of provider ${patch.provider ?? "null"}.`, type: "unknown_key" }));
    const secrets = spec ? secretChanges(patch, spec.secrets) : {};
    await lockSection(s, vault, secrets);
    const section = await readSection(s.tx, ACME_DNS_SECTION);
    const before = present(section);
    const sameProvider = section.fields.provider === patch.provider;
    const fields: Record<string, unknown> | null = spec ? { provider: patch.provider } : null;
    const kept = new Set(sameProvider ? section.secrets : []);
    if (spec && fields) {
      for (const k of spec.plain) {
        const value = patch[k as keyof AcmeDnsPatch] as unknown;
        fields[k] =
          value !== undefined ? (value ?? PLAIN_DEFAULTS[k]) : sameProvider ? (section.fields[k] ?? PLAIN_DEFAULTS[k]) : PLAIN_DEFAULTS[k];
      }
      for (const [k, v] of Object.entries(secrets)) v === null ? kept.delete(k) : kept.add(k);
      for (const k of spec.required)
        if (fields[k] == null && !(spec.secrets.includes(k) && kept.has(k)))
          problems.push({ loc: ["body", k], msg: `Provider ${patch.provider} needs ${k}.`, type: "missing" });
    }
    if (problems.length) throw ApiError.validation(problems);
    if (!sameProvider) await dropSectionSecrets(s, ACME_DNS_SECTION);
    await writeSection(s, vault, ACME_DNS_SECTION, fields, secrets);
    const after = await readAcmeDns(s.tx);
    s.audit({
      action: "settings.acme_dns_updated",
      category: "settings",
      entity_type: "settings",
      entity_id: ACME_DNS_SECTION,
      diff: { before: before.acme_dns, after: after.acme_dns, secrets_changed: Object.keys(secrets) },
    });
    return { ...(await readSettingsView(s.tx)), ...after };
  },
);
