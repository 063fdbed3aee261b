// SNMPv3 poll configurations (docs/adr/0489): the snmp check's v3 keys and rules on POST .../telemetry/config,
// the keys write-only and sealed, each refusal a 422 naming the field with nothing changed, and the version
// deciding which of community and v3 settings is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecret, SNMP_USM_KEYS } from "../../../shared/verbs/vault/secret-columns.ts";
import { createTelemetryActors, type TelemetryActors } from "./support.ts";

let a: TelemetryActors;
beforeAll(async () => {
  a = await createTelemetryActors();
});
afterAll(async () => a.t.close());

const AUTH = "auth-key-0001";
const PRIV = "priv-key-0001";
const config = (id: number, body: unknown) => a.req("POST", `hardware/${id}/telemetry/config`, a.editor, body);
const stored = async (id: number) =>
  (await a.t.sql`select snmp_version, community, usm, usm_keys from telemetry_configs where hardware_id = ${id}`)[0];
const locs = async (res: Response) => ((await res.json()) as { detail: { loc: (string | number)[] }[] }).detail.map((d) => d.loc.join("."));

describe("SNMPv3 poll configuration", () => {
  it("stores an authPriv user: protocols shown, keys only as set flags, sealed bound to the row, never audited", async () => {
    const id = await a.node("v3-01", "192.0.2.31/24");
    const res = await config(id, {
      snmp_version: "v3",
      username: "poller",
      security_level: "authPriv",
      auth_protocol: "SHA-256",
      auth_key: AUTH,
      priv_protocol: "AES",
      priv_key: PRIV,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      snmp_version: "v3",
      community_set: false,
      username: "poller",
      security_level: "authPriv",
      auth_protocol: "SHA-256",
      auth_key_set: true,
      priv_protocol: "AES",
      priv_key_set: true,
    });
    expect(JSON.stringify(body)).not.toMatch(/key-0001/);
    const row = await stored(id);
    expect(row!.usm_keys).toMatch(/^vault:v1:/);
    expect(JSON.parse(await openSecret(a.t.runtime.deps.vault, SNMP_USM_KEYS, id, row!.usm_keys))).toEqual({
      auth_key: AUTH,
      priv_key: PRIV,
    });
    const audits = await a.t
      .sql`select diff::text as diff from audit_log where action like 'telemetry.config.%' and entity_id = ${String(id)}`;
    expect(audits.map((r) => r.diff).join()).not.toMatch(/key-0001/);
    expect(JSON.parse(audits[0]!.diff)).toMatchObject({ usm_keys_changed: true, after: { auth_key_set: true, priv_key_set: true } });
  });

  it("keeps the stored keys when later writes leave them out, and drops the ones a lower level no longer uses", async () => {
    const id = await a.node("v3-02");
    await config(id, { host: "127.0.0.1", snmp_version: "v3", username: "u", security_level: "authPriv", auth_key: AUTH, priv_key: PRIV });
    expect(await (await config(id, { interval_s: 120 })).json()).toMatchObject({ auth_key_set: true, priv_key_set: true, interval_s: 120 });
    const lower = await (await config(id, { security_level: "authNoPriv" })).json();
    expect(lower).toMatchObject({ security_level: "authNoPriv", auth_key_set: true, priv_key_set: false, priv_protocol: null });
    const row = await stored(id);
    expect(JSON.parse(await openSecret(a.t.runtime.deps.vault, SNMP_USM_KEYS, id, row!.usm_keys))).toEqual({ auth_key: AUTH });
  });

  it("switching versions keeps only what the version uses: v2c drops the v3 user, v3 drops the community", async () => {
    const id = await a.node("v3-03");
    await config(id, { host: "127.0.0.1", community: "old-community" });
    const v3 = await (await config(id, { snmp_version: "v3", username: "u" })).json();
    expect(v3).toMatchObject({ snmp_version: "v3", community_set: false, username: "u", security_level: "noAuthNoPriv" });
    expect((await stored(id))!.community).toBeNull();
    const v2 = await (await config(id, { snmp_version: "v2c", community: "new-community" })).json();
    expect(v2).toMatchObject({ snmp_version: "v2c", community_set: true, username: null, security_level: null, auth_key_set: false });
    expect(await stored(id)).toMatchObject({ usm: null, usm_keys: null });
  });

  it("refuses, naming the field and changing nothing: no user, keys the level does not use, missing keys, a community or v3 keys on the wrong version, short keys", async () => {
    const id = await a.node("v3-04");
    await config(id, { host: "127.0.0.1", community: "keep-me" });
    const before = await stored(id);
    const cases: [unknown, string[]][] = [
      [{ snmp_version: "v3" }, ["body.username"]],
      [{ snmp_version: "v3", username: "u", auth_key: AUTH }, ["body.auth_key"]],
      [{ snmp_version: "v3", username: "u", security_level: "authPriv", auth_key: AUTH }, ["body.priv_key"]],
      [{ snmp_version: "v3", username: "u", community: "c" }, ["body.community"]],
      [{ username: "u" }, ["body.username"]],
      [{ snmp_version: "v3", username: "u", security_level: "authNoPriv", auth_key: "short" }, ["body.auth_key"]],
      [{ snmp_version: "v3", username: "u", security_level: "authNoPriv", auth_key: AUTH, auth_protocol: "MD5" }, ["body.auth_protocol"]],
    ];
    for (const [body, expected] of cases) {
      const res = await config(id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(await locs(res)).toEqual(expected);
    }
    expect(await stored(id)).toEqual(before);
  });
});
