// The installation's own SMTP server as the stored settings describe it (PATCH /settings/smtp), for the
// mail the installation sends itself: the test message and account notices (shared/verbs/oauth/
// owner-notice.ts). The password is opened by the vault; undefined when it cannot be.
import type { Db } from "../../db/database.ts";
import type { SmtpServer } from "../../net/mailer.ts";
import type { SmtpRead } from "../../schemas/settings-admin.ts";
import type { Vault } from "../../vault/vault.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { openSectionSecret } from "./secret-section.ts";
import { SMTP_SECTION } from "./smtp.ts";

export async function storedSmtpServer(db: Db, vault: Vault, smtp: SmtpRead, timeoutMs: number): Promise<SmtpServer | undefined> {
  const password = await openSectionSecret(db, vault, SMTP_SECTION, "smtp_password").catch(() => undefined);
  if (password === undefined) return undefined;
  return {
    host: smtp.smtp_host!,
    port: smtp.smtp_port,
    secure: smtp.smtp_port === 465,
    requireTls: smtp.smtp_tls,
    verifyTls: smtp.smtp_verify_tls,
    username: smtp.smtp_username,
    password,
    timeoutMs,
    policy: await readOutboundPolicy(db),
  };
}

/** The From header: `"name" <address>` (quotes and line breaks out of the name), or the address alone. */
export const senderOf = (smtp: SmtpRead): string =>
  smtp.smtp_from_name ? `"${smtp.smtp_from_name.replace(/["\\\r\n]/g, "")}" <${smtp.smtp_from_email}>` : smtp.smtp_from_email!;
