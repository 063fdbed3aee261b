// POST /config/apply with the API kinds (docs/adr/0507): monitors, notification sinks, alert routes and
// status pages in the same request as the inventory they name, written through their own verbs in one
// transaction; the diff compares secrets without answering them; a refusal anywhere changes nothing;
// prune deletes only what the owner's file made; the export writes placeholders, never secrets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
beforeAll(async () => {
  a = await createActors();
});
afterAll(async () => a?.t.close());

type Obj = Record<string, unknown>;
const entry = (kind: string, key: string, fields: Obj) => ({ kind, key, fields });

function lab(password = "first secret", interval = 60): Obj[] {
  return [
    entry("sites", "home", { name: "home" }),
    entry("hardware", "nas-1", { name: "nas-1", ip_address: "127.0.43.20", site: "home" }),
    entry("services", "wiki", { name: "Wiki" }),
    entry("monitors", "nas-ping", {
      name: "nas ping",
      check_type: "tcp",
      host: "127.0.43.20",
      config: { port: 9 },
      target: "hardware/nas-1",
    }),
    entry("monitors", "wiki-http", {
      name: "wiki http",
      check_type: "http",
      host: "127.0.43.30",
      config: { url: "http://127.0.43.30:9/health", headers: { Authorization: "Bearer header secret" } },
      interval_secs: interval,
      target: "services/wiki",
    }),
    entry("notification_sinks", "ops-mail", {
      name: "ops-mail",
      provider_type: "email",
      provider_config: { to: "ops@example.com", smtp_host: "127.0.43.25", smtp_password: password },
    }),
    entry("alert_routes", "critical", { sink: "ops-mail", alert_severity: "critical", site: "home" }),
    entry("status_pages", "home", {
      title: "Home",
      published: true,
      sections: [
        {
          name: "Apps",
          items: [
            { kind: "service", service: "wiki", public_name: "Wiki" },
            { kind: "monitor", monitor: "nas-ping", public_name: "Storage" },
          ],
        },
      ],
    }),
  ];
}

const apply = (objects: Obj[], opts: { dry?: boolean; prune?: boolean; owner?: string } = {}) =>
  a.req("POST", `config/apply${opts.dry ? "?dry_run=true" : ""}`, a.admin, {
    owner: opts.owner ?? "home",
    objects,
    prune: opts.prune ?? false,
  });

describe("configuration as code: monitoring kinds", () => {
  it("creates monitors, a sink, a route and a status page with the inventory they name, then finds nothing to do", async () => {
    const first = await apply(lab());
    expect(first.status, await first.clone().text()).toBe(200);
    const body = await first.json();
    expect(body.counts).toEqual({ create: 8, update: 0, delete: 0, unchanged: 0 });
    const monitors = (await (await a.req("GET", "monitors?sort=name", a.admin)).json()).items;
    const nas = (await (await a.req("GET", "hardware?q=nas-1", a.admin)).json()).items[0];
    expect(monitors.find((m: Obj) => m.name === "nas ping")).toMatchObject({ target_type: "hardware", target_id: nas.id });
    const page = (await (await a.req("GET", "status-pages", a.admin)).json()).items[0];
    const ping = monitors.find((m: Obj) => m.name === "nas ping");
    expect(page.sections[0].items[1]).toMatchObject({ kind: "monitor", monitor_id: ping.id, public_name: "Storage" });
    const sink = (await (await a.req("GET", "notifications/sinks", a.admin)).json()).items[0];
    expect(sink.provider_config).toMatchObject({ smtp_password_set: true });
    expect(JSON.stringify(sink)).not.toContain("first secret");
    const route = (await (await a.req("GET", "notifications/routes", a.admin)).json()).items[0];
    expect(route).toMatchObject({ sink_id: sink.id, alert_severity: "critical" });

    const again = await (await apply(lab())).json();
    expect(again.changes.filter((c: Obj) => c.action !== "unchanged")).toEqual([]);
    expect(again.counts).toEqual({ create: 0, update: 0, delete: 0, unchanged: 8 });
  });

  it("shows changed secrets as masked field changes and writes them only on apply", async () => {
    const diff = await apply(lab("second secret", 120), { dry: true });
    expect(diff.status).toBe(200);
    const d = await diff.json();
    const text = JSON.stringify(d);
    expect(text).not.toContain('secret"');
    expect(text).not.toContain("second secret");
    expect(text).not.toContain("first secret");
    const byKey = new Map(d.changes.map((c: Obj) => [`${c.kind}/${c.key}`, c]));
    expect(byKey.get("notification_sinks/ops-mail")).toMatchObject({
      action: "update",
      fields: { provider_config: { from: { smtp_password: "********" }, to: { smtp_password: "******** (new)" } } },
    });
    expect(byKey.get("monitors/wiki-http")).toMatchObject({ action: "update", fields: { interval_secs: { from: 60, to: 120 } } });
    expect(d.counts).toEqual({ create: 0, update: 2, delete: 0, unchanged: 6 });
    // The dry run wrote nothing: the same diff again.
    expect((await (await apply(lab("second secret", 120), { dry: true })).json()).counts.update).toBe(2);
    expect((await (await apply(lab("second secret", 120))).json()).counts).toEqual({ create: 0, update: 2, delete: 0, unchanged: 6 });
    expect((await (await apply(lab("second secret", 120))).json()).counts.unchanged).toBe(8);
  });

  it("refuses the whole apply when one monitoring object is refused, naming it", async () => {
    const before = (await (await a.req("GET", "monitors", a.admin)).json()).total;
    const objects = [
      ...lab("second secret", 120),
      entry("hardware", "new-box", { name: "new-box" }),
      entry("monitors", "bad", { name: "bad", check_type: "tcp", host: "127.0.43.40", config: { port: 99999 } }),
    ];
    const res = await apply(objects);
    expect(res.status).toBe(422);
    const err = await res.json();
    expect(Object.keys(err.fields).join(" ")).toContain("monitors/bad");
    expect((await (await a.req("GET", "monitors", a.admin)).json()).total).toBe(before);
    expect((await (await a.req("GET", "hardware?q=new-box", a.admin)).json()).total).toBe(0);
  });

  it("refuses unknown fields and references to keys the request does not describe", async () => {
    const res = await apply([
      entry("monitors", "m", { name: "m", check_type: "tcp", host: "127.0.43.41", target: "hardware/nowhere", colour: "red" }),
      entry("alert_routes", "r", { sink: "no-sink" }),
    ]);
    expect(res.status).toBe(422);
    const text = JSON.stringify(await res.json());
    expect(text).toContain('monitors has no field \\"colour\\"');
    expect(text).toContain("target names hardware/nowhere");
    expect(text).toContain("sink names notification_sinks/no-sink");
  });

  it("lists which lab file owns an object, for administrators only", async () => {
    const ping = (await (await a.req("GET", "monitors?q=nas%20ping", a.admin)).json()).items[0];
    const owned = await a.req("GET", `config/objects?kind=monitors&object_id=${ping.id}`, a.admin);
    expect(owned.status).toBe(200);
    expect((await owned.json()).items).toEqual([
      expect.objectContaining({ owner: "home", kind: "monitors", key: "nas-ping", object_id: ping.id }),
    ]);
    expect((await (await a.req("GET", "config/objects?owner=home&sort=key", a.admin)).json()).total).toBe(8);
    expect((await a.req("GET", "config/objects", a.viewer)).status).toBe(403);
    expect((await a.req("GET", "config/objects?object_id=x", a.admin)).status).toBe(422);
  });

  it("exports secrets as placeholders and prunes only the owner's monitoring objects", async () => {
    const exported = await (await a.req("GET", "config/export?owner=home", a.admin)).json();
    const text = JSON.stringify(exported);
    expect(text).not.toContain("second secret");
    expect(text).not.toContain("header secret");
    expect(exported.notification_sinks[0].provider_config.smtp_password).toBe(`\${env:NOTIFICATION_SINKS_OPS_MAIL_SMTP_PASSWORD}`);
    const wiki = exported.monitors.find((m: Obj) => m.name === "wiki http");
    expect(wiki).toMatchObject({ key: "wiki-http", target: "services/wiki" });
    expect(wiki.config.headers.Authorization).toBe(`\${env:MONITORS_WIKI_HTTP_HEADERS_AUTHORIZATION}`);
    expect(exported.alert_routes[0]).toMatchObject({ key: "critical", sink: "ops-mail", site: "home" });
    expect(exported.status_pages[0].sections[0].items[1]).toEqual({ kind: "monitor", monitor: "nas-ping", public_name: "Storage" });

    // A monitor made in the console is not the file's; pruning the monitoring entries leaves it.
    const own = await a.req("POST", "monitors", a.admin, {
      name: "console-made",
      check_type: "tcp",
      host: "127.0.43.50",
      config: { port: 9 },
    });
    expect(own.status).toBe(201);
    const keep = lab("second secret", 120).filter((o) => !["monitors", "alert_routes", "status_pages"].includes(o.kind as string));
    const pruned = await (await apply(keep, { prune: true })).json();
    expect(pruned.counts).toEqual({ create: 0, update: 0, delete: 4, unchanged: 4 });
    const names = (await (await a.req("GET", "monitors", a.admin)).json()).items.map((m: Obj) => m.name);
    expect(names).toEqual(["console-made"]);
    expect((await (await a.req("GET", "status-pages", a.admin)).json()).total).toBe(0);
    expect((await (await a.req("GET", "notifications/routes", a.admin)).json()).total).toBe(0);
  });
});
