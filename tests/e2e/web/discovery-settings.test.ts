// Discovery profiles, job logs, cancel, bulk review and its undo, and the settings edited in place, in a
// real browser against the product started as the README says. Fake hosts to scan listen on
// 127.0.0.221 and 127.0.0.222; a real SMTP server (smtp-server, STARTTLS with its own self-signed
// certificate, login required) on 127.0.0.223; a real S3 API (s3rver) on 127.0.0.226.
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import S3rver from "s3rver";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../agents/support.ts";
import { killAll, type Product, SETUP_TOKEN, startProduct, tempDataDir } from "../helpers.ts";
import { ARTIFACTS, hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.220";
const SCANNED = ["127.0.0.221", "127.0.0.222"] as const;
const SMTP_HOST = "127.0.0.223";
const S3_HOST = "127.0.0.226";
const S3_PORT = 4569;
const ADMIN = { email: "discovery@example.com", password: "a long passphrase for discovery" };
const SMTP_USER = { name: "mailer", password: "smtp-Pass-in-the-UI-1" };

describe.skipIf(!hasChromium)("web UI discovery profiles and settings edited in place", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const listeners: Server[] = [];
  let port = 0;
  let smtp: SMTPServer | undefined;
  let restarted: Product | undefined;
  let s3: S3rver | undefined;
  const s3dir = tempDir("web-s3rver-");
  const mails: Array<{ from: string; to: string[]; data: string; user: string }> = [];

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    // Several screens poll the API from one address; the sink and the mail server are on loopback, which
    // the outbound policy refuses by default.
    await s.api("PUT", "/settings", {
      rate_limit_profile: "relaxed",
      outbound_policy: { allow_private: true, allow_loopback: true, allow_link_local: false },
    });
    // One port, open on both fake hosts: the scan finds two hosts with it.
    const first = createServer((c) => c.destroy());
    await new Promise<void>((r) => first.listen(0, SCANNED[0], r));
    port = (first.address() as { port: number }).port;
    const second = createServer((c) => c.destroy());
    await new Promise<void>((r) => second.listen(port, SCANNED[1], r));
    listeners.push(first, second);
  }, 300_000);

  afterAll(async () => {
    if (s) writeFileSync(join(ARTIFACTS, "discovery-settings-product.log"), s.product.output() + (restarted?.output() ?? ""));
    for (const l of listeners) l.close();
    await new Promise((r) => (smtp ? smtp.close(() => r(undefined)) : r(undefined)));
    await s3?.close();
    s3dir.remove();
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("creates a profile (its 422 on the field first), edits, pauses and runs it; the job's log and results show", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Discovery" }).click();
    await page.getByRole("navigation", { name: "Discovery sections" }).getByRole("link", { name: "Profiles" }).click();
    await seen(page.getByRole("heading", { name: "New profile" }));
    await page.locator("#profile-new-name").fill("lab hosts");
    await page.locator("#profile-new-targets").fill(SCANNED.join(", "));
    await page.getByLabel("icmp").uncheck();
    await page.getByLabel("dns").uncheck();
    await page.locator("#profile-new-ports").fill(String(port));
    await page.locator("#profile-new-cron").fill("every night");
    await page.getByRole("button", { name: "Create profile" }).click();
    const error = await seen(page.locator("#profile-new-cron-error"));
    expect(await error.textContent()).toContain("5-field crontab");
    expect((await s.api("GET", "/discovery/profiles")).total).toBe(0);
    await shot(page, "30-profile-422");

    await page.locator("#profile-new-cron").fill("");
    await page.getByRole("button", { name: "Create profile" }).click();
    const row = page.locator("tr[data-profile]").filter({ hasText: "lab hosts" });
    await seen(row.getByText("by hand"));

    // Edited in place: the same profile gets a schedule, then its schedule is paused and resumed.
    await row.getByRole("button", { name: "Edit" }).click();
    await seen(page.getByRole("heading", { name: "Edit profile lab hosts" }));
    await page.getByLabel("Schedule (optional)").fill("0 3 * * *");
    await page.getByRole("button", { name: "Save profile" }).click();
    await seen(row.getByText("0 3 * * *"));
    const profiles = (await s.api("GET", "/discovery/profiles")) as {
      total: number;
      items: Array<{ id: number; schedule_cron: string | null; next_run_at: string | null }>;
    };
    expect(profiles.total).toBe(1);
    expect(profiles.items[0]!.schedule_cron).toBe("0 3 * * *");
    expect(profiles.items[0]!.next_run_at).not.toBeNull();
    await row.getByRole("button", { name: "Pause" }).click();
    await seen(row.getByText("paused", { exact: true }));
    await shot(page, "31-profile-paused");
    await row.getByRole("button", { name: "Resume" }).click();
    await seen(row.getByText("active", { exact: true }));

    await row.getByRole("button", { name: "Run now" }).click();
    const open = await seen(page.getByRole("link", { name: /^Open scan \d+$/ }));
    await open.click();
    for (const ip of SCANNED) await seen(page.locator("tbody tr").filter({ hasText: ip }).getByRole("button", { name: "Merge" }), 60_000);
    const log = page.getByRole("list", { name: /^Log entries of scan \d+$/ });
    await seen(log.getByText(`Scanning ${SCANNED.length} addresses: tcp`), 30_000);
    await seen(log.getByText(/hosts answered/), 30_000);
    await shot(page, "32-discovery-job-log");
  }, 180_000);

  it("merges the selected results together and undoes the merge", async () => {
    const { page } = s;
    for (const ip of SCANNED) await page.getByLabel(`Select ${ip}`).check();
    await page.getByRole("button", { name: "Merge selected (2)" }).click();
    await seen(page.getByText("2 merged, 0 rejected, 0 skipped."));
    const hardware = async () => ((await s.api("GET", "/hardware")) as { total: number }).total;
    expect(await hardware()).toBe(2);
    await shot(page, "33-discovery-bulk-merged");

    // One audit entry covers both: undoing it from either row puts both back to review.
    page.once("dialog", (d) => {
      expect(d.message()).toContain("1 other results reviewed with it");
      void d.accept();
    });
    await page.locator("tbody tr").filter({ hasText: SCANNED[0] }).getByRole("button", { name: "Undo merge" }).click();
    await seen(page.getByText(/^Undone: 2 results back to pending/));
    for (const ip of SCANNED) await seen(page.locator("tbody tr").filter({ hasText: ip }).getByRole("button", { name: "Merge" }));
    expect(await hardware()).toBe(0);

    for (const ip of SCANNED) await page.getByLabel(`Select ${ip}`).check();
    await page.getByRole("button", { name: "Reject selected" }).click();
    await seen(page.getByText("0 merged, 2 rejected, 0 skipped."));
    await seen(page.locator("tbody tr").filter({ hasText: SCANNED[1] }).getByRole("button", { name: "Undo reject" }));
  }, 90_000);

  it("cancels a scan that waits to run", async () => {
    const { page } = s;
    // The fleet-wide pause holds new jobs queued, so the cancel reaches an open job whatever the machine's speed.
    await s.api("POST", "/discovery/pause");
    try {
      // Started from the scan form: POST /discovery/scan counts in its own rate-limit bucket, apart from the profile's run.
      await page.getByLabel("Targets").fill(SCANNED[0]);
      await page.getByLabel("icmp").uncheck();
      await page.getByLabel("TCP ports").fill(String(port));
      await page.getByLabel("Label (optional)").fill("held");
      await page.getByRole("button", { name: "Start scan" }).click();
      const started = await seen(page.getByRole("button", { name: /^Scan \d+ \(held\)/ }));
      const jobId = Number(/^Scan (\d+)/.exec((await started.textContent())!)![1]);
      const card = page.locator("li.card").filter({ has: page.getByRole("button", { name: `Cancel scan ${jobId}` }) });
      await seen(card.getByText("queued", { exact: true }));
      page.once("dialog", (d) => void d.accept());
      await card.getByRole("button", { name: `Cancel scan ${jobId}` }).click();
      await seen(
        page
          .locator("li.card")
          .filter({ hasText: `Scan ${jobId}` })
          .getByText("cancelled", { exact: true }),
      );
      expect((await s.api("GET", `/discovery/jobs/${jobId}`)).status).toBe("cancelled");
      await shot(page, "34-discovery-cancelled");
    } finally {
      await s.api("POST", "/discovery/resume");
    }
  }, 90_000);

  it("edits a sink in place: the same sink, its secret kept", async () => {
    const { page } = s;
    const created = await s.api("POST", "/notifications/sinks", {
      name: "ops hook",
      provider_type: "webhook",
      provider_config: { url: "http://127.0.0.224:9/hook" },
    });
    const id = Number(created.id);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    const row = page.locator(`tr[data-sink="${id}"]`);
    await row.getByRole("button", { name: "Edit" }).click();
    await seen(page.getByRole("heading", { name: "Edit sink ops hook" }));
    expect(await page.locator(`#sink-${id}-url`).inputValue()).toBe("http://127.0.0.224:9/hook");
    await seen(page.locator(`#sink-${id}-secret-hint`).getByText("Set (never shown); empty keeps it."));
    await page.locator(`#sink-${id}-url`).fill("not a url");
    await page.getByRole("button", { name: "Save sink" }).click();
    await seen(page.locator(`#sink-${id}-url-error`));
    await shot(page, "35-sink-edit-422");

    await page.locator(`#sink-${id}-name`).fill("ops hook (moved)");
    await page.locator(`#sink-${id}-url`).fill("http://127.0.0.225:9/hook");
    await page.getByRole("button", { name: "Save sink" }).click();
    await seen(row.getByText("ops hook (moved)"));
    const sinks = (await s.api("GET", "/notifications/sinks")) as {
      total: number;
      items: Array<{ id: number; name: string; provider_config: Record<string, unknown> }>;
    };
    expect(sinks.total).toBe(1);
    expect(sinks.items[0]).toMatchObject({
      id,
      name: "ops hook (moved)",
      provider_config: { url: "http://127.0.0.225:9/hook", secret_set: true },
    });
  }, 60_000);

  it("saves the SMTP settings (a 422 on the sender first) and sends a test message to a real SMTP server", async () => {
    smtp = new SMTPServer({
      authOptional: false,
      onAuth(auth, session, cb) {
        if (!session.secure) return cb(new Error("auth before STARTTLS"));
        if (auth.username === SMTP_USER.name && auth.password === SMTP_USER.password) return cb(null, { user: SMTP_USER.name });
        cb(new Error("Invalid username or password"));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          mails.push({
            from: String(session.envelope.mailFrom ? session.envelope.mailFrom.address : false),
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString(),
            user: String(session.user),
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp!.listen(0, SMTP_HOST, r));
    const smtpPort = (smtp.server.address() as { port: number }).port;

    const { page } = s;
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Email (SMTP)" }).click();
    await seen(page.getByRole("heading", { name: "Email (SMTP)" }));
    await seen(page.locator("#smtp-password-hint").getByText("Not set."));
    await page.getByLabel("Server", { exact: true }).fill(SMTP_HOST);
    await page.getByLabel("Port").fill(String(smtpPort));
    await page.getByLabel("Verify the server's certificate").uncheck();
    await page.getByLabel("User name (optional)").fill(SMTP_USER.name);
    await page.getByLabel("Password").fill(SMTP_USER.password);
    await page.getByLabel("Sender address").fill("not an address");
    await page.getByRole("button", { name: "Save SMTP settings" }).click();
    await seen(page.locator("#smtp-from-email-error"));
    expect(await page.getByLabel("Sender address").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Sender address").fill("control@example.test");
    await page.getByRole("button", { name: "Save SMTP settings" }).click();
    await seen(page.getByText("The SMTP settings are saved."));
    await seen(page.locator("#smtp-password-hint").getByText("Set (never shown); empty keeps it."));
    const settings = await s.api("GET", "/settings");
    expect(settings).toMatchObject({
      smtp_host: SMTP_HOST,
      smtp_port: smtpPort,
      smtp_username: SMTP_USER.name,
      smtp_password_set: true,
      smtp_from_email: "control@example.test",
      smtp_verify_tls: false,
    });
    expect(JSON.stringify(settings)).not.toContain(SMTP_USER.password);
    expect(await page.content()).not.toContain(SMTP_USER.password);

    await page.getByLabel("Send a test message to (optional)").fill("ops@example.test");
    await page.getByRole("button", { name: "Send test message" }).click();
    await seen(page.getByText("Test email sent to ops@example.test"), 30_000);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ from: "control@example.test", to: ["ops@example.test"], user: SMTP_USER.name });
    await seen(page.locator(".status").getByText("ok", { exact: true }));
    await shot(page, "36-smtp-test-sent");
  }, 60_000);

  it("sets the backup schedule (a 422 on it first) and the S3 copy, checked against a real S3 API", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Backup schedule" }).click();
    await seen(page.getByRole("heading", { name: "Schedule and S3 copy" }));
    await seen(page.locator("#backup-s3-secret-hint").getByText("Not set."));
    const before = (await s.api("GET", "/admin/settings/backup")).backup_schedule;
    await page.getByLabel("Schedule", { exact: true }).fill("nightly");
    await page.getByRole("button", { name: "Save backup settings" }).click();
    await seen(page.locator("#backup-backup_schedule-error"));
    expect((await s.api("GET", "/admin/settings/backup")).backup_schedule).toBe(before);

    await page.getByLabel("Schedule", { exact: true }).fill("0 2 * * *");
    await page.getByLabel("Archives kept on disk").fill("5");
    await page.getByRole("button", { name: "Save backup settings" }).click();
    await seen(page.getByText('Saved: backups run at "0 2 * * *" (UTC).'));
    expect(await s.api("GET", "/admin/settings/backup")).toMatchObject({
      backup_schedule: "0 2 * * *",
      backup_local_retention_count: 5,
      backup_s3_bucket: null,
      backup_s3_secret_key_set: false,
    });
    // The S3 check needs a bucket first.
    expect(await page.getByRole("button", { name: "Check the S3 target" }).isDisabled()).toBe(true);

    // The S3 copy against s3rver (a real S3 API server, which checks the key id, not SigV4 signatures): a
    // wrong key id is the store's refusal, shown as the check's error; the right one answers.
    s3 = new S3rver({
      address: S3_HOST,
      port: S3_PORT,
      directory: s3dir.dir,
      silent: true,
      configureBuckets: [{ name: "backups", configs: [] }],
    });
    await s3.run();
    await page.getByLabel("S3 bucket").fill("backups");
    await page.getByLabel("S3 endpoint URL (optional)").fill(`http://${S3_HOST}:${S3_PORT}`);
    await page.getByLabel("Access key id").fill("WRONGKEY");
    await page.getByLabel("Secret access key").fill("not-the-key");
    await page.getByRole("button", { name: "Save backup settings" }).click();
    await seen(page.locator("#backup-s3-secret-hint").getByText("Set (never shown); empty keeps it."));
    await page.getByRole("button", { name: "Check the S3 target" }).click();
    await seen(page.locator(".notice-error"), 30_000);
    expect((await s.api("GET", "/admin/settings/backup")).backup_s3_access_key_id).toBe("WRONGKEY");
    await page.getByLabel("Access key id").fill("S3RVER");
    await page.getByLabel("Secret access key").fill("S3RVER");
    await page.getByRole("button", { name: "Save backup settings" }).click();
    await seen(page.getByText('Saved: backups run at "0 2 * * *" (UTC).'));
    await page.getByRole("button", { name: "Check the S3 target" }).click();
    await seen(page.getByText(`The bucket backups at http://${S3_HOST}:${S3_PORT} answers.`), 30_000);
    const stored = await s.api("GET", "/admin/settings/backup");
    expect(stored).toMatchObject({
      backup_s3_bucket: "backups",
      backup_s3_access_key_id: "S3RVER",
      backup_s3_secret_key_set: true,
      backup_schedule: "0 2 * * *",
    });
    expect(JSON.stringify(stored)).not.toContain("not-the-key");
    await shot(page, "37-backup-schedule-s3");
  }, 90_000);

  it("creates a custom role (422s on its fields first), edits it in place and deletes it once nobody holds it", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Users and roles" }).click();
    await seen(page.getByRole("heading", { name: "New custom role" }));
    await page.getByLabel("Role name").fill("NOC");
    await page.getByLabel("Scopes").fill("read:*");
    await page.getByRole("button", { name: "Create role" }).click();
    await seen(page.locator("#role-new-name-error"));
    await page.getByLabel("Role name").fill("noc");
    await page.getByLabel("Scopes").fill("read:* fly:everywhere");
    await page.getByRole("button", { name: "Create role" }).click();
    expect(await (await seen(page.locator("#role-new-scopes-error"))).textContent()).toContain("fly:everywhere");
    await page.getByLabel("Scopes").fill("read:*, write:hardware");
    await page.getByRole("button", { name: "Create role" }).click();
    const row = page.locator('tr[data-role="noc"]');
    await seen(row.getByText("read:* write:hardware"));

    await row.getByRole("button", { name: "Edit" }).click();
    await seen(page.getByRole("heading", { name: "Edit role noc" }));
    const roles = (await s.api("GET", "/settings/roles")) as unknown as Array<{ id: number | null; name: string }>;
    const id = roles.find((r) => r.name === "noc")!.id!;
    await page.locator(`#role-${id}-name`).fill("noc-ops");
    await page.locator(`#role-${id}-scopes`).fill("read:* write:hardware write:networks");
    await page.getByRole("button", { name: "Save role" }).click();
    const renamed = page.locator('tr[data-role="noc-ops"]');
    await seen(renamed.getByText("read:* write:hardware write:networks"));
    const after = (await s.api("GET", "/settings/roles")) as unknown as Array<{ id: number | null; name: string; scopes: string[] }>;
    expect(after.find((r) => r.id === id)).toMatchObject({ name: "noc-ops", scopes: ["read:*", "write:hardware", "write:networks"] });

    // Held by a user, it cannot go: the API's 409 names them.
    const user = await s.api("POST", "/admin/users", {
      email: "noc@example.com",
      role: "noc-ops",
      password: "noc passphrase 12345",
      must_change_password: false,
    });
    page.once("dialog", (d) => void d.accept());
    await renamed.getByRole("button", { name: "Delete" }).click();
    await seen(page.getByText(/Role noc-ops is still assigned to 1 user\(s\): noc@example.com/));
    await shot(page, "38-custom-role-held");
    await s.api("PATCH", `/admin/users/${String(user.id)}`, { role: "viewer" });
    page.once("dialog", (d) => void d.accept());
    await renamed.getByRole("button", { name: "Delete" }).click();
    await expect
      .poll(async () => ((await s.api("GET", "/settings/roles")) as unknown as Array<{ name: string }>).some((r) => r.name === "noc-ops"), {
        timeout: 15_000,
        interval: 500,
      })
      .toBe(false);
    await renamed.waitFor({ state: "detached", timeout: 15_000 });
    await seen(page.locator('tr[data-role="viewer"]'));
  }, 60_000);

  it("shows a viewer the profiles read-only and refuses them the SMTP and backup settings", async () => {
    // noc@example.com is a viewer again after the role test.
    const viewer = await s.browser.newContext({ viewport: { width: 1000, height: 800 } });
    try {
      const p = await viewer.newPage();
      await p.goto(`${s.product.url}/discovery/profiles`);
      await p.getByLabel("Email").fill("noc@example.com");
      await p.getByLabel("Password").fill("noc passphrase 12345");
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.locator("tr[data-profile]").filter({ hasText: "lab hosts" }));
      expect(await p.getByRole("heading", { name: "New profile" }).count()).toBe(0);
      expect(await p.getByRole("button", { name: "Run now" }).count()).toBe(0);
      await p.getByRole("link", { name: "Scans" }).click();
      await seen(p.getByRole("heading", { name: /^Log of scan \d+$/ }));
      expect(await p.getByRole("button", { name: /^Cancel scan/ }).count()).toBe(0);
      expect(await p.getByRole("button", { name: /^Undo/ }).count()).toBe(0);

      await p.goto(`${s.product.url}/settings/smtp`);
      // The mail server's address is an administrator's setting: a viewer's GET /settings does not carry it.
      await seen(p.getByText("Only an administrator sees these settings."));
      expect(await p.getByLabel("Server", { exact: true }).count()).toBe(0);
      expect(await p.content()).not.toContain(SMTP_HOST);
      await p.getByRole("link", { name: "Backup schedule" }).click();
      await seen(p.getByText("Your role cannot see the backup settings"));
      await shot(p, "39-viewer-backup-settings");
    } finally {
      await viewer.close();
    }
  }, 60_000);

  it("rotates the vault key after a restart with the new key beside the old, after asking; the SMTP password still opens", async () => {
    const { page } = s;
    // The all-in-one product recorded its generated key at its first start (DATA_DIR/vault.key).
    const oldKey = readFileSync(join(data.dir, "vault.key"), "utf8").trim();
    const newKey = randomBytes(32).toString("base64");
    await s.product.stop("SIGTERM");
    restarted = await startProduct(
      { HOST, DATA_DIR: data.dir, SVC_SETUP_TOKEN: SETUP_TOKEN, SVC_VAULT_KEY: newKey, SVC_VAULT_KEY_PREVIOUS: oldKey },
      240_000,
    );
    // The session lives in the database and the cookie is the host's: still signed in on the new port.
    await page.goto(`${restarted.url}/settings/system`);
    await seen(page.getByText("(a rotation is pending)"));
    await seen(page.getByText("degraded", { exact: true }));
    const vault = async () => page.evaluate(async () => (await (await fetch("/api/v1/health/vault")).json()) as Record<string, unknown>);
    expect(await vault()).toMatchObject({ rotation_pending: true, key_source: "environment" });
    await shot(page, "38-vault-rotation-pending");

    page.once("dialog", (d) => void d.dismiss());
    await page.getByRole("button", { name: "Re-encrypt under the new key" }).click();
    expect((await vault()).rotation_pending).toBe(true);
    page.once("dialog", (d) => {
      expect(d.message()).toContain("SVC_VAULT_KEY_PREVIOUS");
      void d.accept();
    });
    await page.getByRole("button", { name: "Re-encrypt under the new key" }).click();
    await seen(page.getByText("Every secret is now sealed with the new key."), 30_000);
    await seen(page.getByText("healthy", { exact: true }));
    expect(await page.getByRole("button", { name: "Re-encrypt under the new key" }).count()).toBe(0);
    expect(await vault()).toMatchObject({ rotation_pending: false, status: "healthy" });
    await page.getByRole("button", { name: "Test the vault" }).click();
    await seen(page.getByText("Vault encryption/decryption verified."));
    await shot(page, "40-vault-rotated");

    // The SMTP password sealed under the old key opens under the new one.
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Email (SMTP)" }).click();
    await page.getByLabel("Send a test message to (optional)").fill("after-rotation@example.test");
    await page.getByRole("button", { name: "Send test message" }).click();
    await seen(page.getByText("Test email sent to after-rotation@example.test"), 30_000);
    expect(mails.map((m) => m.to[0])).toEqual(["ops@example.test", "after-rotation@example.test"]);
  }, 300_000);
});
