// The e-mail to an account's owner when someone signed in through a provider identity that is not
// linked to the account but carries its verified e-mail (issue 36 item 5). The sign-in itself is
// answered like any other refusal (no account enumeration); the owner learns of it here, when SMTP is
// set up and the runtime can send mail. Never throws: a failed notice is logged, the refusal stands.
import type { Db } from "../../db/database.ts";
import type { Logger } from "../../logger.ts";
import { MailError, type Mailer } from "../../net/mailer.ts";
import type { Vault } from "../../vault/vault.ts";
import { readSmtp } from "../settings/smtp.ts";
import { senderOf, storedSmtpServer } from "../settings/smtp-server.ts";

const TIMEOUT_MS = 15_000;

export interface OwnerNotice {
  to: string;
  providerLabel: string;
  at: Date;
}

export async function sendOwnerNotice(
  deps: { db: Db; vault: Vault; mailer: Mailer | undefined; logger: Logger },
  notice: OwnerNotice,
): Promise<"sent" | "skipped" | "failed"> {
  // No mailer (the edge): nothing to do, and no database work after the answer.
  if (!deps.mailer) return "skipped";
  try {
    const smtp = await readSmtp(deps.db);
    if (!smtp.smtp_enabled || !smtp.smtp_host || !smtp.smtp_from_email) return "skipped";
    const server = await storedSmtpServer(deps.db, deps.vault, smtp, TIMEOUT_MS);
    if (!server) return "skipped";
    await deps.mailer.send(server, {
      from: senderOf(smtp),
      to: notice.to,
      subject: `${smtp.smtp_from_name}: sign-in attempt through ${notice.providerLabel}`,
      text: [
        `At ${notice.at.toISOString()} someone signed in at ${notice.providerLabel} with an account that has your e-mail address (${notice.to}), and tried to sign in here with it.`,
        `That ${notice.providerLabel} account is not linked to your account here, so the sign-in was refused.`,
        "",
        `If it was you: sign in as usual and link ${notice.providerLabel} from your account settings. If it was not, nothing has changed here; you may want to tell your administrator.`,
      ].join("\n"),
    });
    return "sent";
  } catch (e) {
    deps.logger.warn("oauth owner notice not sent", { error: e instanceof MailError ? e.message : (e as Error).name });
    return "failed";
  }
}
