// Two sidecars on one database (`npm start` and `npm run start:sidecar`, as a split deployment runs a
// second one): a decision made through either process's HTTP API reaches the agent whose socket the
// other one holds, through the database (rows + NOTIFY agent_control): approval, a capability change and
// the revoke that ends the agent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, type Product } from "../helpers.ts";
import {
  type Admin,
  bootstrapAdmin,
  createTestDatabase,
  type RunningAgent,
  runAgent,
  serverKeyOf,
  startOn,
  stopAgents,
  TEST_GRANTS,
  type TestDatabase,
  until,
} from "./support.ts";

let db: TestDatabase;
let a: Product;
let b: Product;
let admin: Admin;

beforeAll(async () => {
  db = await createTestDatabase();
  a = await startOn(db);
  b = await startOn(db, {}, ["run", "start:sidecar"]);
  admin = await bootstrapAdmin(a);
}, 120_000);

afterAll(async () => {
  stopAgents();
  await killAll();
  await db?.drop();
});

async function pairing(agent: RunningAgent): Promise<number> {
  const code = await until("a pairing code", () => {
    const e = agent.events.find((x) => x.type === "pairing_code");
    return e?.type === "pairing_code" ? e.code : undefined;
  });
  return code.agent_id!;
}

const grantsOf = (agent: RunningAgent) =>
  agent.events.filter((e) => e.type === "grants").map((e) => (e.type === "grants" ? e.grants : undefined)!);

describe("two sidecars on one database", () => {
  it("approval, capabilities and revoke made through one reach the agent linked to the other", async () => {
    const key = await serverKeyOf(a);
    // onB holds its sockets on the sidecar-only process, onA on the all-in-one one.
    const onB = runAgent({ serverUrl: b.url, serverKey: key, name: "on-sidecar-b", backoff: { maxMs: 2000 } });
    const onA = runAgent({ serverUrl: a.url, serverKey: key, name: "on-product-a", backoff: { maxMs: 2000 } });
    const [idB, idA] = [await pairing(onB), await pairing(onA)];

    await admin.call("POST", `agents/${idB}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS }, a);
    await admin.call("POST", `agents/${idA}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS }, b);
    await until("both linked", () => (onA.linkedCount() > 0 && onB.linkedCount() > 0 ? true : undefined), 20_000);
    expect(grantsOf(onB).at(-1)!.telemetry).toMatchObject({ enabled: true, intervalS: 10 });

    await admin.call("PUT", `agents/${idB}/capabilities`, { capabilities: { host_telemetry: false } }, a);
    await admin.call("PUT", `agents/${idA}/capabilities`, { capabilities: { host_telemetry: { config: { interval_s: 60 } } } }, b);
    await until(
      "capabilities.set on both",
      () => (grantsOf(onB).at(-1)!.telemetry.enabled === false && grantsOf(onA).at(-1)!.telemetry.intervalS === 60 ? true : undefined),
      10_000,
    );

    await admin.call("POST", `agents/${idB}/revoke`, { reason: "revoked through a" }, a);
    await admin.call("POST", `agents/${idA}/revoke`, { reason: "revoked through b" }, b);
    const within = <T>(promise: Promise<T>) =>
      Promise.race([promise, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 10_000))]);
    expect(await within(onB.done)).toMatchObject({ code: 3, reason: "revoked" });
    expect(await within(onA.done)).toMatchObject({ code: 3, reason: "revoked" });
  }, 90_000);
});
