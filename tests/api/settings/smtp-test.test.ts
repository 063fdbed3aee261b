// POST /settings/smtp/test against a real SMTP receiver (smtp-server on 127.0.0.41) that requires
// STARTTLS before AUTH: the message arrives as sent, the outcome is recorded, a success turns SMTP on,
// and failures (bad password, untrusted certificate, unconfigured) answer status error.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, json } from "../audit/harness.ts";

const HOST = "127.0.0.41";
let h: Harness;
let server: SMTPServer;
let port: number;
const received: { from: string; to: string[]; data: string; secure: boolean; user: string }[] = [];

beforeAll(async () => {
  h = await createHarness();
  server = new SMTPServer({
    // smtp-server's built-in self-signed certificate serves STARTTLS.
    authOptional: false,
    onAuth(auth, session, cb) {
      if (!session.secure) return cb(new Error("auth before STARTTLS"));
      if (auth.username === "mailer" && auth.password === "smtp-Pass-1") return cb(null, { user: "mailer" });
      cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: String(session.envelope.mailFrom ? session.envelope.mailFrom.address : false),
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString(),
          secure: session.secure,
          user: String(session.user),
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, HOST, r));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await h?.t.close();
  await new Promise((r) => server?.close(() => r(undefined)));
});

const smtpTest = async (query = "", token?: string) => {
  const res = await h.call(`/api/v1/settings/smtp/test${query}`, { method: "POST", ...(token === undefined ? {} : { token }) });
  return { status: res.status, body: await res.json() };
};
const patch = (body: unknown) => h.call("/api/v1/settings/smtp", { method: "PATCH", ...json(body) });
const smtpRow = async () =>
  (await h.t.sql`select value from app_settings where key = 'smtp'`)[0]?.value as Record<string, unknown> | undefined;

describe("POST /settings/smtp/test", () => {
  it("says when no host is configured", async () => {
    expect(await smtpTest()).toEqual({ status: 200, body: { status: "error", message: "SMTP host is not configured" } });
  });

  it("sends a real message over STARTTLS with the sealed password, records it and turns SMTP on", async () => {
    const res = await patch({
      smtp_enabled: false,
      smtp_host: HOST,
      smtp_port: port,
      smtp_username: "mailer",
      smtp_password: "smtp-Pass-1",
      smtp_from_email: "cb@example.test",
      smtp_verify_tls: false,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).smtp_enabled).toBe(false);
    expect(await smtpTest("?send_to=ops%40example.test")).toEqual({
      status: 200,
      body: { status: "ok", message: "Test email sent to ops@example.test" },
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: "cb@example.test", to: ["ops@example.test"], secure: true, user: "mailer" });
    expect(received[0]!.data).toContain("Subject: Circuit Breaker: test email");
    expect(received[0]!.data).toContain("From: Circuit Breaker <cb@example.test>");
    const row = await smtpRow();
    expect(row).toMatchObject({ smtp_enabled: true, smtp_last_test_status: "ok" });
    expect(Date.now() - Date.parse(String(row!.smtp_last_test_at))).toBeLessThan(60_000);
    const read = await (await patch({})).json();
    expect(read).toMatchObject({ smtp_enabled: true, smtp_last_test_status: "ok" });
  });

  it("without send_to connects and logs in only", async () => {
    expect((await smtpTest()).body).toEqual({ status: "ok", message: "Connection successful" });
    expect(received).toHaveLength(1);
  });

  it("answers status error for a refused login and an untrusted certificate, and records it", async () => {
    await patch({ smtp_password: "wrong" });
    const refused = (await smtpTest("?send_to=ops%40example.test")).body;
    expect(refused.status).toBe("error");
    expect(refused.message).toMatch(/^SMTP EAUTH/);
    expect(refused.message).not.toContain("wrong");
    expect((await smtpRow())!.smtp_last_test_status).toBe("error");
    await patch({ smtp_password: "smtp-Pass-1", smtp_verify_tls: true });
    const untrusted = (await smtpTest()).body;
    expect(untrusted.status).toBe("error");
    expect(received).toHaveLength(1);
    await patch({ smtp_verify_tls: false });
  });

  it("refuses a bad send_to with 422 and sends nothing; administrators only", async () => {
    const res = await h.call("/api/v1/settings/smtp/test?send_to=not-an-address", { method: "POST" });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("send_to");
    expect((await smtpTest("", h.viewerToken)).status).toBe(403);
    expect((await smtpTest("", "")).status).toBe(401);
    expect(received).toHaveLength(1);
  });
});
