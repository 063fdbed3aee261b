// Sends one email notification through nodemailer: STARTTLS required unless the sink asks for TLS from the
// first byte (smtp_secure), so neither credentials nor alerts cross the network in clear. Sidecar-only:
// the functions on the edge have no SMTP sockets. The server's address is resolved and checked against
// the outbound policy first, then pinned (the name kept for TLS), so DNS cannot swap it afterwards.
import { isIP } from "node:net";
import nodemailer from "nodemailer";
import { pinAllowedAddress } from "../../net/outbound-http.ts";
import type { OutboundPolicy } from "../../shared/domain/net/outbound-policy.ts";
import { OutboundError } from "../../shared/net/outbound.ts";
import { renderEmail } from "../../shared/domain/notifications/render.ts";
import type { DeliveryJob } from "../../shared/services/notifications/delivery-work.ts";
import type { SendOutcome } from "./send-http.ts";

export async function sendEmail(job: DeliveryJob, timeoutMs: number, policy: OutboundPolicy): Promise<SendOutcome> {
  const c = job.sink.config;
  const secure = c.smtp_secure === true;
  const name = String(c.smtp_host);
  let address: string;
  try {
    address = await pinAllowedAddress(name, policy);
  } catch (e) {
    const refused = e instanceof OutboundError && e.code === "refused";
    return { outcome: "failed", http_status: null, error: refused ? `Refused by the outbound policy: ${e.message}` : `SMTP ${(e as Error).message}` };
  }
  const transport = nodemailer.createTransport({
    host: address,
    port: Number(c.smtp_port ?? (secure ? 465 : 587)),
    secure,
    requireTLS: !secure,
    ...(c.smtp_username ? { auth: { user: String(c.smtp_username), pass: job.sink.secrets.smtp_password ?? "" } } : {}),
    tls: { rejectUnauthorized: c.smtp_verify_tls !== false, ...(isIP(name) ? {} : { servername: name }) },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  const mail = renderEmail(c, job.message);
  try {
    await transport.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text });
    return { outcome: "delivered", http_status: null, error: null };
  } catch (e) {
    const err = e as { code?: string; responseCode?: number; message?: string };
    const timeout = err.code === "ETIMEDOUT";
    return { outcome: timeout ? "timeout" : "failed", http_status: null, error: `SMTP ${err.code ?? "error"}${err.responseCode ? ` ${err.responseCode}` : ""}` };
  } finally {
    transport.close();
  }
}
