// PATCH /settings/firewall: the OPNsense API GET /settings/firewall/test talks to (the reference kept it
// among the application settings; the catalogue has no route to write it, so it gets this one, shaped like
// PATCH /settings/smtp). URL in the `firewall` row of app_settings, key and secret sealed apart.
import { ApiError } from "../../errors.ts";
import { checkOutboundUrl } from "../../domain/net/outbound-policy.ts";
import type { Db } from "../../db/database.ts";
import type { FirewallPatch, FirewallRead } from "../../schemas/settings-admin.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { defineVerb } from "../verb.ts";
import { changedKeys } from "./apply.ts";
import { SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { lockSection, readSection, secretChanges, type Section, writeSection } from "./secret-section.ts";
import { vaultOf } from "../verb-context.ts";

export const FIREWALL_SECTION = "firewall";
export const FIREWALL_SECRETS = ["firewall_api_key", "firewall_api_secret"] as const;

function present(section: Section): FirewallRead {
  return {
    firewall_url: (section.fields.firewall_url as string | undefined) ?? null,
    firewall_verify_tls: (section.fields.firewall_verify_tls as boolean | undefined) ?? true,
    firewall_api_key_set: section.secrets.has("firewall_api_key"),
    firewall_api_secret_set: section.secrets.has("firewall_api_secret"),
  };
}

export async function readFirewall(db: Db): Promise<FirewallRead> {
  return present(await readSection(db, FIREWALL_SECTION));
}

export const updateFirewallSettings = defineVerb<FirewallPatch, FirewallRead>({ scope: SETTINGS_WRITE_SCOPE }, async (s, patch) => {
  const vault = vaultOf(s.ctx);
  const secrets = secretChanges(patch, FIREWALL_SECRETS);
  await lockSection(s, vault, secrets);
  const section = await readSection(s.tx, FIREWALL_SECTION);
  const before = present(section);
  if (patch.firewall_url) {
    const check = checkOutboundUrl(patch.firewall_url, await readOutboundPolicy(s.tx));
    if (!check.ok) throw ApiError.validation([{ loc: ["body", "firewall_url"], msg: check.message, type: "value_error" }]);
  }
  const fields = {
    firewall_url: patch.firewall_url === undefined ? before.firewall_url : patch.firewall_url,
    firewall_verify_tls: patch.firewall_verify_tls === undefined ? before.firewall_verify_tls : (patch.firewall_verify_tls ?? true),
  };
  await writeSection(s, vault, FIREWALL_SECTION, fields, secrets);
  const after = await readFirewall(s.tx);
  const diff = changedKeys(before, after);
  if (diff.keys.length || Object.keys(secrets).length)
    s.audit({
      action: "settings.firewall_updated",
      category: "settings",
      entity_type: "settings",
      entity_id: FIREWALL_SECTION,
      diff: { before: diff.before, after: diff.after, secrets_changed: Object.keys(secrets) },
    });
  return after;
});
