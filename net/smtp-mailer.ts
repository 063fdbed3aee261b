// The Node Mailer (shared/net/mailer.ts) through nodemailer, shared by the notification sink's email
// delivery and POST /settings/smtp/test. The server's address is resolved and checked against the
// outbound policy first, then pinned (the name kept for TLS), so DNS cannot swap it afterwards.
import { isIP } from "node:net";
import type { Transporter } from "nodemailer";
import { OutboundError } from "../shared/net/outbound.ts";
import { MailError, type Mailer, type MailMessage, type SmtpServer } from "../shared/net/mailer.ts";
import { pinAllowedAddress } from "./outbound-http.ts";

/** Connects (the outbound policy checked, the address pinned), runs `use` on the transport, closes it. */
async function withTransport(server: SmtpServer, use: (t: Transporter) => Promise<unknown>): Promise<void> {
  let address: string;
  try {
    address = await pinAllowedAddress(server.host, server.policy);
  } catch (e) {
    if (e instanceof OutboundError && e.code === "refused") throw new MailError("refused", `Refused by the outbound policy: ${e.message}`);
    throw new MailError("failed", `SMTP ${(e as Error).message}`);
  }
  // Loaded on first use, not at start: few servers send mail, and nodemailer weighs ~30 MiB (docs/adr/0508).
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: address,
    port: server.port,
    secure: server.secure,
    requireTLS: !server.secure && server.requireTls,
    ...(server.username ? { auth: { user: server.username, pass: server.password ?? "" } } : {}),
    tls: { rejectUnauthorized: server.verifyTls, ...(isIP(server.host) ? {} : { servername: server.host }) },
    connectionTimeout: server.timeoutMs,
    greetingTimeout: server.timeoutMs,
    socketTimeout: server.timeoutMs,
  });
  try {
    await use(transport);
  } catch (e) {
    const err = e as { code?: string; responseCode?: number };
    throw new MailError(
      err.code === "ETIMEDOUT" ? "timeout" : "failed",
      `SMTP ${err.code ?? "error"}${err.responseCode ? ` ${err.responseCode}` : ""}`,
    );
  } finally {
    transport.close();
  }
}

export const sendMail = (server: SmtpServer, message: MailMessage) => withTransport(server, (t) => t.sendMail(message));
/** Connects, greets, starts TLS and logs in, sending nothing. */
export const verifySmtp = (server: SmtpServer) => withTransport(server, (t) => t.verify());

export const nodeMailer = (): Mailer => ({ send: sendMail, verify: verifySmtp });
