// /notifications/escalation-policies* and a route's escalation_policy_id and quiet_hours (docs/adr/0448,
// 0450): the list envelope, 201, ETag/If-Match on PATCH and DELETE, a 409 for a policy a route names, the
// 422s naming `steps[i].sink_ids`, the zone and a malformed time, and the scope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actors, createActors } from "../../helpers/actors.ts";

let a: Actors;
let sinkA: number;
let sinkB: number;
beforeAll(async () => {
  a = await createActors();
  const sink = async (name: string) =>
    (
      await (
        await a.req("POST", "notifications/sinks", a.admin, {
          name,
          provider_type: "telegram",
          provider_config: { bot_token: "1:abc", chat_id: "42" },
        })
      ).json()
    ).id as number;
  sinkA = await sink("primary");
  sinkB = await sink("secondary");
});
afterAll(async () => a?.t.close());

const P = "notifications/escalation-policies";
const locs = async (res: Response) => ((await res.json()).detail as { loc: (string | number)[] }[]).map((d) => d.loc.join("."));

describe("escalation policies", () => {
  it("creates, lists, reads, changes under If-Match and deletes a policy", async () => {
    const res = await a.req("POST", P, a.admin, {
      name: "on-call",
      steps: [
        { after_minutes: 5, sink_ids: [sinkA] },
        { after_minutes: 10, sink_ids: [sinkA, sinkB, sinkB] },
      ],
      repeat: 2,
      renotify_every_minutes: 30,
    });
    expect(res.status).toBe(201);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"\d+"$/);
    const policy = await res.json();
    expect(policy).toMatchObject({
      name: "on-call",
      steps: [
        { after_minutes: 5, sink_ids: [sinkA] },
        { after_minutes: 10, sink_ids: [sinkA, sinkB] },
      ],
      repeat: 2,
      renotify_every_minutes: 30,
      route_ids: [],
    });
    const list = await (await a.req("GET", P, a.admin)).json();
    expect(list).toMatchObject({ total: 1, limit: 25, offset: 0 });
    expect(list.items[0].id).toBe(policy.id);

    const one = await a.req("GET", `${P}/${policy.id}`, a.admin);
    expect(one.headers.get("etag")).toBe(etag);
    const changed = await a.req("PATCH", `${P}/${policy.id}`, a.admin, { repeat: 0 }, { "if-match": etag });
    expect(changed.status).toBe(200);
    expect((await changed.json()).repeat).toBe(0);
    expect(changed.headers.get("etag")).not.toBe(etag);
    // The old version is stale now, for a change and for a delete.
    expect((await a.req("PATCH", `${P}/${policy.id}`, a.admin, { repeat: 1 }, { "if-match": etag })).status).toBe(412);
    expect((await a.req("DELETE", `${P}/${policy.id}`, a.admin, undefined, { "if-match": etag })).status).toBe(412);
    const del = await a.req("DELETE", `${P}/${policy.id}`, a.admin, undefined, { "if-match": changed.headers.get("etag")! });
    expect(del.status).toBe(204);
    expect((await a.req("GET", `${P}/${policy.id}`, a.admin)).status).toBe(404);
  });

  it("refuses a step with no sink, an unknown sink, no steps and a repeat out of range, naming the field", async () => {
    const empty = await a.req("POST", P, a.admin, {
      name: "x",
      steps: [
        { after_minutes: 5, sink_ids: [sinkA] },
        { after_minutes: 5, sink_ids: [] },
      ],
    });
    expect(empty.status).toBe(422);
    expect(await locs(empty)).toContain("body.steps.1.sink_ids");
    const unknown = await a.req("POST", P, a.admin, { name: "x", steps: [{ after_minutes: 5, sink_ids: [sinkA, 999999] }] });
    expect(unknown.status).toBe(422);
    expect(await locs(unknown)).toEqual(["body.steps.0.sink_ids"]);
    expect(await locs(await a.req("POST", P, a.admin, { name: "x", steps: [] }))).toContain("body.steps");
    expect(
      await locs(await a.req("POST", P, a.admin, { name: "x", steps: [{ after_minutes: 1, sink_ids: [sinkA] }], repeat: 11 })),
    ).toContain("body.repeat");
    expect(
      await locs(
        await a.req("POST", P, a.admin, { name: "x", steps: [{ after_minutes: 1, sink_ids: [sinkA] }], renotify_every_minutes: 0 }),
      ),
    ).toContain("body.renotify_every_minutes");
    expect((await a.t.sql`select count(*)::int as n from notification_escalation_policies`)[0]!.n).toBe(0);
  });

  it("needs admin:notifications", async () => {
    expect((await a.req("GET", P, a.viewer)).status).toBe(403);
    expect((await a.req("POST", P, a.editor, { name: "x", steps: [{ after_minutes: 1, sink_ids: [sinkA] }] })).status).toBe(403);
    expect((await a.req("GET", P)).status).toBe(401);
  });
});

describe("a route's policy and quiet hours", () => {
  const quiet = { timezone: "Europe/Berlin", windows: [{ days: ["mon", "tue"], start: "22:00", end: "07:00" }], hold_below: "critical" };

  it("names a policy and quiet hours; a policy named by a route cannot be deleted", async () => {
    const policy = await (await a.req("POST", P, a.admin, { name: "p", steps: [{ after_minutes: 5, sink_ids: [sinkB] }] })).json();
    const res = await a.req("POST", "notifications/routes", a.admin, {
      sink_id: sinkA,
      escalation_policy_id: policy.id,
      quiet_hours: quiet,
    });
    expect(res.status).toBe(201);
    const route = await res.json();
    expect(route).toMatchObject({ escalation_policy_id: policy.id, quiet_hours: quiet });
    expect((await (await a.req("GET", `${P}/${policy.id}`, a.admin)).json()).route_ids).toEqual([route.id]);

    const blocked = await a.req("DELETE", `${P}/${policy.id}`, a.admin);
    expect(blocked.status).toBe(409);
    expect((await blocked.json()).route_ids).toEqual([route.id]);

    const got = await a.req("GET", `notifications/routes/${route.id}`, a.admin);
    const etag = got.headers.get("etag")!;
    const cleared = await a.req(
      "PATCH",
      `notifications/routes/${route.id}`,
      a.admin,
      { escalation_policy_id: null, quiet_hours: null },
      { "if-match": etag },
    );
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toMatchObject({ escalation_policy_id: null, quiet_hours: null, sink_id: sinkA, alert_severity: "*" });
    expect((await a.req("PATCH", `notifications/routes/${route.id}`, a.admin, { enabled: false }, { "if-match": etag })).status).toBe(412);
    expect((await a.req("DELETE", `notifications/routes/${route.id}`, a.admin, undefined, { "if-match": etag })).status).toBe(412);
    expect((await a.req("DELETE", `${P}/${policy.id}`, a.admin)).status).toBe(204);
    expect((await a.req("DELETE", `notifications/routes/${route.id}`, a.admin)).status).toBe(200);
  });

  it("refuses an unknown policy, an invalid zone, a malformed time, an unknown day and a bad threshold, naming the field", async () => {
    const post = (body: Record<string, unknown>) => a.req("POST", "notifications/routes", a.admin, { sink_id: sinkA, ...body });
    expect(await locs(await post({ escalation_policy_id: 999999 }))).toEqual(["body.escalation_policy_id"]);
    expect(await locs(await post({ quiet_hours: { ...quiet, timezone: "Mars/Olympus" } }))).toEqual(["body.quiet_hours.timezone"]);
    expect(await locs(await post({ quiet_hours: { ...quiet, windows: [{ days: ["mon"], start: "25:00", end: "07:00" }] } }))).toEqual([
      "body.quiet_hours.windows.0.start",
    ]);
    expect(await locs(await post({ quiet_hours: { ...quiet, windows: [{ days: ["mon"], start: "22:00", end: "7am" }] } }))).toEqual([
      "body.quiet_hours.windows.0.end",
    ]);
    expect(await locs(await post({ quiet_hours: { ...quiet, windows: [{ days: ["someday"], start: "22:00", end: "07:00" }] } }))).toEqual([
      "body.quiet_hours.windows.0.days.0",
    ]);
    expect(await locs(await post({ quiet_hours: { ...quiet, windows: [{ days: ["mon"], start: "22:00", end: "22:00" }] } }))).toEqual([
      "body.quiet_hours.windows.0.end",
    ]);
    expect(await locs(await post({ quiet_hours: { ...quiet, hold_below: "info" } }))).toEqual(["body.quiet_hours.hold_below"]);
    expect((await a.t.sql`select count(*)::int as n from notification_routes`)[0]!.n).toBe(0);
  });
});
