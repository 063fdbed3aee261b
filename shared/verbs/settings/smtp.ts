// The SMTP settings section (spec/catalogue.tsv, group settings): the server the installation sends its own
// mail through. Plain fields in the `smtp` row of app_settings, the password sealed apart
// (secret-section.ts). This is its read; PATCH /settings/smtp's verb is smtp-update.ts, which checks
// the host against the outbound policy.
import type { Db } from "../../db/database.ts";
import type { SmtpRead } from "../../schemas/settings-admin.ts";
import { readSection, type Section } from "./secret-section.ts";

export const SMTP_SECTION = "smtp";
export const DEFAULTS = {
  smtp_enabled: false,
  smtp_host: null,
  smtp_port: 587,
  smtp_username: null,
  smtp_from_email: null,
  smtp_from_name: "Circuit Breaker",
  smtp_tls: true,
  smtp_verify_tls: true,
  smtp_last_test_at: null,
  smtp_last_test_status: null,
};
export type Plain = Omit<SmtpRead, "smtp_password_set">;
export const PLAIN_KEYS = Object.keys(DEFAULTS) as (keyof Plain)[];

export function present(section: Section): SmtpRead {
  const plain = Object.fromEntries(PLAIN_KEYS.map((k) => [k, section.fields[k] ?? DEFAULTS[k]])) as Plain;
  return { ...plain, smtp_password_set: section.secrets.has("smtp_password") };
}

export async function readSmtp(db: Db): Promise<SmtpRead> {
  return present(await readSection(db, SMTP_SECTION));
}
