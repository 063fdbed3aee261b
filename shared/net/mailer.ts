// Sending one email through an operator's SMTP server (POST /settings/smtp/test). Types only, like
// outbound.ts: the Node implementation is net/smtp-mailer.ts (nodemailer); the edge has no SMTP sockets,
// so Deps.mailer is absent there.
import type { OutboundPolicy } from "../domain/net/outbound-policy.ts";

export interface SmtpServer {
  host: string;
  port: number;
  /** TLS from the first byte (port 465 style); otherwise STARTTLS, required when `requireTls`. */
  secure: boolean;
  requireTls: boolean;
  /** false accepts any certificate (a homelab's self-signed one). */
  verifyTls: boolean;
  username?: string | null;
  password?: string | null;
  timeoutMs: number;
  policy: OutboundPolicy;
}

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  headers?: Record<string, string> | undefined;
}

export interface Mailer {
  /** Throws MailError (its message safe to show: never a credential). */
  send(server: SmtpServer, message: MailMessage): Promise<void>;
  /** Connects, starts TLS and logs in without sending. */
  verify(server: SmtpServer): Promise<void>;
}

export class MailError extends Error {
  readonly code: "refused" | "timeout" | "failed";

  constructor(code: "refused" | "timeout" | "failed", message: string) {
    super(message);
    this.name = "MailError";
    this.code = code;
  }
}
