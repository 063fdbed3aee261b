// What GET /settings answers (reference AppSettingsRead): the plain settings plus the sections that have
// routes of their own (SMTP, ACME DNS, the firewall API), with their secrets only as `*_set` flags. PUT
// /settings takes the whole read shape back: a section key equal to what it holds is ignored, a changed
// one is a 422 naming the route that writes it, so nothing is dropped silently.
import type { Db } from "../../db/database.ts";
import { ApiError, type ValidationIssue } from "../../errors.ts";
import { SECTION_KEYS } from "../../schemas/settings-admin.ts";
import { defineRead } from "../verb.ts";
import { readAcmeDns } from "./acme-dns.ts";
import { readFirewall } from "./firewall-settings.ts";
import { actorCan } from "../actor.ts";
import { readAllSettings, type Settings, SETTINGS_READ_SCOPE, SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { readSmtp } from "./smtp.ts";

export type SettingsView = Settings & Record<string, unknown>;

export async function readSettingsView(db: Db): Promise<SettingsView> {
  const [plain, smtp, acme, firewall] = await Promise.all([readAllSettings(db), readSmtp(db), readAcmeDns(db), readFirewall(db)]);
  return { ...plain, ...smtp, ...acme, ...firewall };
}

/**
 * The keys a reader who is not an administrator gets (issue 36 item 8): what the console renders for
 * everyone (the rate-limit profile of "Vault and rate limits"; the theme lives in the browser and the
 * branding has its own read). Settings that hold URLs, addresses or secrets (feed sources, public_url,
 * the SMTP, ACME DNS and firewall sections) and the security knobs are an administrator's.
 */
export const VIEWER_SETTING_KEYS = ["rate_limit_profile"] as const satisfies readonly (keyof Settings)[];

export async function readViewerSettings(db: Db): Promise<Record<string, unknown>> {
  const plain = await readAllSettings(db);
  return Object.fromEntries(VIEWER_SETTING_KEYS.map((k) => [k, plain[k]]));
}

/** An administrator (or the first-run grant) reads every setting; any other reader the viewer's keys only. */
export const getSettings = defineRead({ scope: SETTINGS_READ_SCOPE }, async (ctx) =>
  ctx.actor && actorCan(ctx.actor, SETTINGS_WRITE_SCOPE) ? readSettingsView(ctx.db) : readViewerSettings(ctx.db),
);

/**
 * Splits a PUT body: answers the plain keys, and refuses (422) a section key whose value differs from
 * the stored one. Equal section keys are the read shape sent back and change nothing.
 */
export async function withoutSectionKeys(db: Db, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const given = Object.keys(body).filter((k) => SECTION_KEYS.has(k) && body[k] !== undefined);
  if (given.length === 0) return body;
  const view = await readSettingsView(db);
  const issues: ValidationIssue[] = given
    .filter((k) => JSON.stringify(body[k]) !== JSON.stringify(view[k]))
    .map((k) => ({
      loc: ["body", k],
      msg: `"${k}" is changed through ${SECTION_KEYS.get(k)}, not PUT /api/v1/settings.`,
      type: "value_error",
    }));
  if (issues.length) throw ApiError.validation(issues);
  return Object.fromEntries(Object.entries(body).filter(([k]) => !SECTION_KEYS.has(k)));
}
