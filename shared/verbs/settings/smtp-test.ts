// POST /settings/smtp/test?send_to= (spec/catalogue.tsv, group settings): with send_to, sends a real message through the
// stored SMTP settings; without, connects, starts TLS and logs in only ("Connection successful"). The mail
// goes out through Deps.mailer (Node; on the edge there is none and the answer says so), outside any
// transaction; then the outcome is recorded (smtp_last_test_at/status) and a success turns SMTP on.
import { appSettings } from "../../db/schema/index.ts";
import { MailError, type Mailer } from "../../net/mailer.ts";
import type { SmtpTest } from "../../schemas/settings-admin.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { lockSettings } from "./apply.ts";
import { SETTINGS_WRITE_SCOPE } from "./read-all.ts";
import { readSection } from "./secret-section.ts";
import { readSmtp, SMTP_SECTION } from "./smtp.ts";
import { senderOf, storedSmtpServer } from "./smtp-server.ts";
import { vaultOf } from "../verb-context.ts";

const TIMEOUT_MS = 15_000;

const recordSmtpTest = defineVerb(
  { scope: SETTINGS_WRITE_SCOPE },
  async (s, { status, sentTo }: { status: "ok" | "error"; sentTo: string | null }) => {
    await lockSettings(s);
    const { fields } = await readSection(s.tx, SMTP_SECTION);
    const next = {
      ...fields,
      smtp_last_test_at: s.now.toISOString(),
      smtp_last_test_status: status,
      ...(status === "ok" ? { smtp_enabled: true } : {}),
    };
    await s.tx
      .insert(appSettings)
      .values({ key: SMTP_SECTION, value: next, updated_at: s.now })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: next, updated_at: s.now } });
    s.audit({
      action: "settings.smtp_tested",
      category: "settings",
      entity_type: "settings",
      entity_id: SMTP_SECTION,
      diff: { status, sent_to: sentTo, smtp_enabled_before: fields.smtp_enabled ?? false },
    });
  },
);

export const testSmtp = defineRead(
  { scope: SETTINGS_WRITE_SCOPE },
  async (ctx, { mailer, sendTo }: { mailer: Mailer | undefined; sendTo: string | undefined }): Promise<SmtpTest> => {
    const smtp = await readSmtp(ctx.db);
    if (!smtp.smtp_host) return { status: "error", message: "SMTP host is not configured" };
    if (sendTo && !smtp.smtp_from_email) return { status: "error", message: "SMTP sender address (smtp_from_email) is not configured" };
    if (!mailer) return { status: "error", message: "Sending mail needs the Node server: this runtime has no SMTP sockets" };
    const server = await storedSmtpServer(ctx.db, vaultOf(ctx), smtp, TIMEOUT_MS);
    if (!server) return { status: "error", message: "The stored SMTP password cannot be opened with this server's vault key" };
    let answer: SmtpTest;
    try {
      if (sendTo) {
        await mailer.send(server, {
          from: senderOf(smtp),
          to: sendTo,
          subject: `${smtp.smtp_from_name}: test email`,
          text: "This is a test email: the SMTP settings work.",
        });
        answer = { status: "ok", message: `Test email sent to ${sendTo}` };
      } else {
        await mailer.verify(server);
        answer = { status: "ok", message: "Connection successful" };
      }
    } catch (e) {
      if (!(e instanceof MailError)) throw e;
      answer = { status: "error", message: e.message };
    }
    await recordSmtpTest({ ctx, input: { status: answer.status, sentTo: sendTo ?? null } });
    return answer;
  },
);
