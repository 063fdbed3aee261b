// The daily certificates job, run as POST /admin/jobs/certificates/run does (under its lock, with the
// process's services): renews an auto_renew certificate expiring in 10 days and leaves the others,
// re-presents a renewed active certificate, and raises the expiry warnings once per threshold (30, 14,
// 3 days) through the notification routes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cryptoRandom } from "../../../shared/clock.ts";
import { dispatchAlerts } from "../../../shared/verbs/notifications/dispatch-alerts.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { type Actors, createActors } from "../../helpers/actors.ts";
import { chainFor } from "./pki.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
}, 60_000);
afterAll(async () => a?.t.close());

const DAY = 86_400_000;
const runJob = async () => {
  const res = await a.req("POST", "admin/jobs/certificates/run", a.admin);
  expect(res.status).toBe(200);
  const run = await res.json();
  expect(run.outcome).toBe("success");
  return run.detail as { renewed: number[]; failed: { id: number; error: string }[]; warned: number[] };
};
const expireIn = (id: number, days: number) =>
  a.t.sql`update certificates set expires_at = now() + ${`${days} days`}::interval where id = ${id}`;
const create = async (body: Record<string, unknown>) =>
  (await (await a.req("POST", "certificates", a.admin, body)).json()) as { id: number; fingerprint_sha256: string };
const alerts = () => a.t.sql<{ target_id: number; severity: string; title: string; detail: { threshold_days: number; domain: string } }[]>`
  select target_id, severity, title, detail from notification_alerts where kind = 'certificate.expiring' order by id`;

describe("certificates job", () => {
  it("renews the auto_renew certificate expiring in 10 days (re-presenting it, being active) and leaves the others", async () => {
    const soon = await create({ domain: "soon.example.test" });
    const manual = await create({ domain: "manual.example.test", auto_renew: false });
    const later = await create({ domain: "later.example.test" });
    await expireIn(soon.id, 10);
    await expireIn(manual.id, 10);
    expect((await a.req("POST", `certificates/${soon.id}/activate`, a.admin)).status).toBe(200);
    const reloads: string[] = [];
    a.t.runtime.deps.tls = { reload: async (cert) => (reloads.push(cert), true) };
    try {
      const detail = await runJob();
      expect(detail.renewed).toEqual([soon.id]);
      expect(detail.failed).toEqual([]);
    } finally {
      delete a.t.runtime.deps.tls;
    }
    const rows = await a.t.sql<
      { id: number; expires_at: Date; fingerprint_sha256: string; last_renewed_at: Date | null; cert_pem: string }[]
    >`
      select id, expires_at, fingerprint_sha256, last_renewed_at, cert_pem from certificates where id in (${soon.id}, ${manual.id}, ${later.id}) order by id`;
    const [s, m, l] = rows;
    expect(s!.fingerprint_sha256).not.toBe(soon.fingerprint_sha256);
    expect(s!.expires_at.getTime() - Date.now()).toBeGreaterThan(360 * DAY);
    expect(s!.last_renewed_at).not.toBeNull();
    expect(reloads).toEqual([s!.cert_pem]);
    expect(m!.last_renewed_at).toBeNull();
    expect(m!.expires_at.getTime() - Date.now()).toBeLessThan(11 * DAY);
    expect(l!.fingerprint_sha256).toBe(later.fingerprint_sha256);
    // The manual one is left to expire, and warned about (14 days); the renewed one is not.
    expect((await alerts()).map((r) => [r.target_id, r.detail.threshold_days, r.severity])).toEqual([[manual.id, 14, "warning"]]);
    await a.t.sql`delete from notification_alerts`;
    await a.t.sql`delete from certificates where id = ${manual.id}`;
  });

  it("a letsencrypt certificate whose order fails keeps its error in renew_error and is reported as failed", async () => {
    const acme = a.t.runtime.deps.acme;
    const { leaf } = await chainFor("acme-fails.example.test");
    a.t.runtime.deps.acme = { issue: async () => ({ cert_pem: leaf.pem, key_pem: leaf.keyPem }) };
    const le = await create({ domain: "acme-fails.example.test", type: "letsencrypt" });
    a.t.runtime.deps.acme = {
      issue: async () => {
        throw new Error("urn:ietf:params:acme:error:rateLimited: too many certificates");
      },
    };
    try {
      await expireIn(le.id, 5);
      const detail = await runJob();
      expect(detail.failed).toEqual([{ id: le.id, error: "urn:ietf:params:acme:error:rateLimited: too many certificates" }]);
      const [row] = await a.t.sql<{ renew_error: string }[]>`select renew_error from certificates where id = ${le.id}`;
      expect(row!.renew_error).toMatch(/rateLimited/);
      // Its warning says so.
      const [alert] = await a.t.sql<{ body: string }[]>`select body from notification_alerts where target_id = ${le.id}`;
      expect(alert!.body).toMatch(/The last renewal failed: .*rateLimited/);
    } finally {
      if (acme) a.t.runtime.deps.acme = acme;
      else delete a.t.runtime.deps.acme;
      await a.t.sql`delete from notification_alerts`;
      await a.t.sql`delete from certificates where id = ${le.id}`;
    }
  });

  it("raises each warning once per threshold (30, 14, 3 days), through the notification routes", async () => {
    const sink = await (
      await a.req("POST", "notifications/sinks", a.admin, {
        name: "cert-hook",
        provider_type: "webhook",
        provider_config: { url: "http://127.0.0.72:9/hook" },
      })
    ).json();
    expect(
      (await a.req("POST", "notifications/routes", a.admin, { sink_id: sink.id, alert_severity: "*", event_kinds: ["certificate.*"] }))
        .status,
    ).toBe(201);
    const { leaf } = await chainFor("upload.example.test", { days: 365 });
    const cert = await create({ domain: "upload.example.test", type: "imported", cert_pem: leaf.pem, key_pem: leaf.keyPem });

    await runJob();
    expect(await alerts()).toEqual([]);
    await expireIn(cert.id, 25);
    expect((await runJob()).warned).toEqual([cert.id]);
    expect((await runJob()).warned).toEqual([]);
    await expireIn(cert.id, 13);
    expect((await runJob()).warned).toEqual([cert.id]);
    await runJob();
    await expireIn(cert.id, 2);
    await runJob();
    await runJob();
    const raised = await alerts();
    expect(raised.map((r) => [r.detail.threshold_days, r.severity])).toEqual([
      [30, "info"],
      [14, "warning"],
      [3, "critical"],
    ]);
    expect(
      raised.every(
        (r) => r.title === "Certificate Expiration Warning" && r.target_id === cert.id && r.detail.domain === "upload.example.test",
      ),
    ).toBe(true);
    const [row] = await a.t.sql<{ warned_days: number }[]>`select warned_days::int as warned_days from certificates where id = ${cert.id}`;
    expect(row!.warned_days).toBe(3);

    // The routes turn them into deliveries to the sink.
    await dispatchAlerts({
      ctx: systemContext({ db: a.t.runtime.database.provider.lease().db, clock: a.t.runtime.deps.clock, random: cryptoRandom }),
      input: { groupingDelayMs: 0, maxAttempts: 1 },
    });
    const deliveries = await a.t
      .sql`select d.sink_id from notification_deliveries d join notification_alerts x on x.id = d.alert_id where x.kind = 'certificate.expiring'`;
    expect(deliveries).toHaveLength(3);
    expect(deliveries.every((d) => d.sink_id === sink.id)).toBe(true);

    // A new upload starts the warnings over.
    const next = await chainFor("upload.example.test", { days: 20 });
    expect((await a.req("PUT", `certificates/${cert.id}`, a.admin, { cert_pem: next.leaf.pem, key_pem: next.leaf.keyPem })).status).toBe(
      200,
    );
    expect((await runJob()).warned).toEqual([cert.id]);
  });
});
