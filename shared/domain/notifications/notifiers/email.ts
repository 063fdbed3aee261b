// Email through the sink's own SMTP server (this release has no global SMTP settings, docs/adr/0107-sinks-carry-their-own-smtp-server.md);
// sent by sidecar/notifications/send-email.ts, the one provider that is not an HTTP request.
import type { SmtpNotifier } from "./notifier.ts";

export const email = {
  type: "email",
  transport: "smtp",
  fields: {
    // `to_address`: the original's name for it.
    to: { kind: "string", required: true, alias: "to_address", missing: "An email sink needs a recipient — set the 'to' address." },
    from_email: { kind: "string" },
    subject_prefix: { kind: "string" },
    smtp_host: { kind: "host", required: true },
    smtp_port: { kind: "port" },
    smtp_username: { kind: "string" },
    smtp_password: { kind: "string", secret: true },
    /** true: TLS from the first byte (465); false (default): STARTTLS, required before any credential or message. */
    smtp_secure: { kind: "bool" },
    /** false accepts a self-signed certificate on the SMTP server. */
    smtp_verify_tls: { kind: "bool" },
  },
  render({ config, message: m }) {
    const to = String(config.to);
    const from = String(config.from_email ?? `alerts@${String(config.smtp_host)}`);
    if (m.mail) return { to, from, ...m.mail, subject: m.mail.subject.slice(0, 250) };
    const prefix = typeof config.subject_prefix === "string" && config.subject_prefix !== "" ? `${config.subject_prefix} ` : "";
    return {
      to,
      from,
      subject: `${prefix}[${m.severity}] ${m.title}`.slice(0, 250),
      text: `${m.title}\n\n${m.body}\n\nSeverity: ${m.severity}\nEvent: ${m.kind}\nAt: ${m.occurred_at}\n`,
    };
  },
} satisfies SmtpNotifier<"email">;
