// The sender of the "smtp" provider (shared/domain/notifications/notifiers/email.ts): one mail through
// net/smtp-mailer.ts, STARTTLS required unless the sink asks for TLS from the first byte (smtp_secure), so
// neither credentials nor alerts cross the network in clear.
// Sidecar-only: the functions on the edge have no SMTP sockets.
import { sendMail } from "../../net/smtp-mailer.ts";
import type { OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import { MailError } from "../../shared/net/mailer.ts";
import type { SmtpNotifier } from "../../shared/domain/notifications/notifiers/notifier.ts";
import type { DeliveryJob } from "../../shared/verbs/notifications/delivery-job.ts";
import type { SendOutcome } from "./send-http.ts";

export async function sendEmail(
  provider: SmtpNotifier,
  job: DeliveryJob,
  timeoutMs: number,
  nowSecs: number,
  policy: OutboundPolicy,
): Promise<SendOutcome> {
  const c = job.sink.config;
  const secure = c.smtp_secure === true;
  const mail = provider.render({ config: c, secrets: job.sink.secrets, message: job.message, nowSecs });
  try {
    await sendMail(
      {
        host: String(c.smtp_host),
        port: Number(c.smtp_port ?? (secure ? 465 : 587)),
        secure,
        // Sinks always require TLS; the installation's own SMTP settings (a status page subscriber's mail) may not.
        requireTls: c.smtp_require_tls !== false,
        verifyTls: c.smtp_verify_tls !== false,
        username: c.smtp_username ? String(c.smtp_username) : null,
        password: job.sink.secrets.smtp_password ?? "",
        timeoutMs,
        policy,
      },
      {
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.headers ? { headers: mail.headers } : {}),
      },
    );
    return { outcome: "delivered", http_status: null, error: null };
  } catch (e) {
    if (!(e instanceof MailError)) throw e;
    return { outcome: e.code === "timeout" ? "timeout" : "failed", http_status: null, error: e.message };
  }
}
