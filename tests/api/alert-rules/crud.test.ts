// /alert-rules (docs/alert-rules.md): the list envelope, 201 with an ETag, PATCH with If-Match, delete,
// every bad field a 422 naming it with nothing stored, scopes, the audit log, and POST /alert-rules/test
// over the last hour of stored samples.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuleActors, type RuleActors } from "./support.ts";

let a: RuleActors;
beforeAll(async () => {
  a = await createRuleActors();
});
afterAll(async () => a.t.close());

const CPU = { name: "CPU hot", metric: "host.cpu_pct", operator: ">", threshold: 90 };
const count = async () => (await a.t.sql`select count(*)::int as n from alert_rules`)[0]!.n as number;

describe("CRUD", () => {
  it("creates (201, ETag, defaults), reads, lists, patches with If-Match and deletes, auditing each write", async () => {
    const res = await a.req("POST", "alert-rules", a.admin, CPU);
    expect(res.status).toBe(201);
    const etag = res.headers.get("etag");
    const rule = await res.json();
    expect(rule).toMatchObject({
      ...CPU,
      clear_threshold: 90,
      aggregation: "last",
      window_secs: 300,
      for_secs: 0,
      severity: "warning",
      scope_kind: "all",
      enabled: true,
      firing_count: 0,
    });
    expect(etag).toBe(`W/"${Date.parse(rule.updated_at)}"`);

    const one = await a.req("GET", `alert-rules/${rule.id}`, a.viewer);
    expect(one.status).toBe(200);
    expect(one.headers.get("etag")).toBe(etag);

    const list = await (await a.req("GET", "alert-rules?q=cpu&limit=10", a.viewer)).json();
    expect(list).toMatchObject({ total: 1, limit: 10, offset: 0, sort: "name", direction: "asc" });
    expect(list.items[0].id).toBe(rule.id);

    const patched = await a.req(
      "PATCH",
      `alert-rules/${rule.id}`,
      a.admin,
      { threshold: 95, clear_threshold: 80, severity: "critical" },
      { "if-match": etag! },
    );
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ threshold: 95, clear_threshold: 80, severity: "critical", name: "CPU hot" });
    const stale = await a.req("PATCH", `alert-rules/${rule.id}`, a.admin, { threshold: 99 }, { "if-match": etag! });
    expect(stale.status).toBe(412);

    expect((await a.req("DELETE", `alert-rules/${rule.id}`, a.admin)).status).toBe(204);
    expect((await a.req("GET", `alert-rules/${rule.id}`, a.admin)).status).toBe(404);
    const audit = await a.t
      .sql`select action from audit_log where entity_type = 'alert_rule' and entity_id = ${String(rule.id)} order by id`;
    expect(audit.map((r) => r.action)).toEqual(["alert_rule.create", "alert_rule.update", "alert_rule.delete"]);
  });

  it("a viewer reads but cannot write; an editor lacks write:monitors", async () => {
    expect((await a.req("GET", "alert-rules", a.viewer)).status).toBe(200);
    expect((await a.req("POST", "alert-rules", a.viewer, CPU)).status).toBe(403);
    expect((await a.req("POST", "alert-rules/test", a.viewer, CPU)).status).toBe(403);
    expect((await a.req("POST", "alert-rules", a.editor, CPU)).status).toBe(403);
    expect((await a.req("POST", "alert-rules", undefined, CPU)).status).toBe(401);
  });
});

describe("bad input: 422 naming the field, nothing stored", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["a metric that does not exist", { ...CPU, metric: "host.bogomips" }, "metric"],
    ["a filesystem metric without a mount", { ...CPU, metric: "host.fs_pct{}" }, "metric"],
    ["an operator other than > or <", { ...CPU, operator: ">=" }, "operator"],
    ["a clear threshold on the firing side (>)", { ...CPU, clear_threshold: 95 }, "clear_threshold"],
    ["a clear threshold on the firing side (<)", { ...CPU, operator: "<", threshold: 10, clear_threshold: 5 }, "clear_threshold"],
    ["an unknown aggregation", { ...CPU, aggregation: "p42" }, "aggregation"],
    ["a window past an hour", { ...CPU, window_secs: 7200 }, "window_secs"],
    ["a negative duration", { ...CPU, for_secs: -1 }, "for_secs"],
    ["an unknown severity", { ...CPU, severity: "dire" }, "severity"],
    ["an unknown scope kind", { ...CPU, scope_kind: "rack" }, "scope_kind"],
    ["a node scope without its node", { ...CPU, scope_kind: "node" }, "scope_node_id"],
    ["a node scope on a missing node", { ...CPU, scope_kind: "node", scope_node_id: 999_999 }, "scope_node_id"],
    ["a tag scope without its tag", { ...CPU, scope_kind: "tag" }, "scope_tag"],
    ["a site scope on a missing site", { ...CPU, scope_kind: "site", scope_site_id: 999_999 }, "scope_site_id"],
    ["a threshold that is not a number", { ...CPU, threshold: "90" }, "threshold"],
    ["no threshold", { name: "x", metric: "host.cpu_pct", operator: ">" }, "threshold"],
    ["an unknown field", { ...CPU, colour: "red" }, "colour"],
  ];
  for (const [what, body, field] of cases)
    it(what, async () => {
      const before = await count();
      const res = await a.req("POST", "alert-rules", a.admin, body);
      expect(res.status).toBe(422);
      const err = await res.json();
      expect(err.detail.map((d: { loc: string[] }) => d.loc.at(-1))).toContain(field);
      expect(await count()).toBe(before);
    });

  it("PATCH judges the result whole: a clear threshold made unsafe by a new threshold is a 422", async () => {
    const rule = await a.rule({ ...CPU, clear_threshold: 80 });
    const res = await a.req("PATCH", `alert-rules/${rule.id}`, a.admin, { threshold: 70 });
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].loc).toEqual(["body", "clear_threshold"]);
    expect((await (await a.req("GET", `alert-rules/${rule.id}`, a.admin)).json()).threshold).toBe(90);
  });
});

describe("POST /alert-rules/test", () => {
  it("answers the transitions the rule would have made over the last hour, per node, storing nothing", async () => {
    const n = await a.agentNode("rules-test-01");
    const quiet = await a.agentNode("rules-test-02");
    const t0 = new Date(a.clock.now().getTime() - 40 * 60_000);
    const series: [number, number][] = [0, 60, 120, 180, 240, 300, 360, 420].map((secs, i) => [secs, [50, 95, 96, 97, 80, 60, 50, 40][i]!]);
    await a.frames(
      n.agent_id,
      t0,
      series.map(([secs, v]) => [secs, { cpu_pct: v }]),
    );
    await a.frames(quiet.agent_id, t0, [[0, { cpu_pct: 10 }]]);
    const before = await count();
    const res = await a.req("POST", "alert-rules/test", a.admin, { ...CPU, clear_threshold: 70, for_secs: 60 });
    expect(res.status).toBe(200);
    const out = await res.json();
    const at = (secs: number) => new Date(t0.getTime() + secs * 1000).toISOString();
    expect(out.transitions.filter((t: { hardware_id: number }) => t.hardware_id === n.hardware_id)).toEqual([
      { hardware_id: n.hardware_id, hardware_name: "rules-test-01", transition: "pending", at: at(60), value: 95 },
      { hardware_id: n.hardware_id, hardware_name: "rules-test-01", transition: "firing", at: at(120), value: 96 },
      { hardware_id: n.hardware_id, hardware_name: "rules-test-01", transition: "cleared", at: at(300), value: 60 },
    ]);
    expect(out.transitions.some((t: { hardware_id: number }) => t.hardware_id === quiet.hardware_id)).toBe(false);
    expect(out.firing_now).toEqual([]);
    expect(out.nodes_evaluated).toBeGreaterThanOrEqual(2);
    expect(await count()).toBe(before);
    const bad = await a.req("POST", "alert-rules/test", a.admin, { ...CPU, metric: "nope" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].loc).toEqual(["body", "metric"]);
  });
});
