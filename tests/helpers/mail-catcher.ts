// A real SMTP server (smtp-server) on a loopback address that accepts every message without a login and
// keeps it: the stand-in for the mail server of tests that follow what the installation sends.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface CaughtMail {
  to: string[];
  /** The raw message: headers and body as sent. */
  data: string;
}

export interface MailCatcher {
  host: string;
  port: number;
  mails: CaughtMail[];
  close(): Promise<void>;
}

export async function startMailCatcher(host: string): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString() });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, host, r));
  const port = (smtp.server.address() as AddressInfo).port;
  return { host, port, mails, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}
