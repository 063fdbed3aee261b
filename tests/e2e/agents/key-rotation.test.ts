// The reference agent follows a server key rotation: key.rotate reaches the linked agent, which stores
// the successor and uses it for its next handshake (then trusts only it); a successor that does not work
// falls back to the current key until its expiry. And an `update` it cannot apply (this agent runs from a
// checkout, built without a release key) is answered with update.status failed, which the server records;
// tests/e2e/agents/self-update.test.ts has the updates that apply.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintOf } from "../../../agent/trust.ts";
import { testReleaseKey } from "../../helpers/release-key.ts";
import type { Product } from "../helpers.ts";
import { type Admin, type RunningAgent, runAgent, serverKeyOf, tempDir, TEST_GRANTS, until, productFixture } from "./support.ts";

let p: Product;
let admin: Admin;
const binaries = tempDir("agent-binaries-");
const state = tempDir("agent-rotation-");

const fixture = productFixture();

beforeAll(async () => {
  mkdirSync(join(binaries.dir, "9.9.9", "linux", "amd64"), { recursive: true });
  writeFileSync(join(binaries.dir, "9.9.9", "linux", "amd64", "svc-agent"), "not really an agent");
  // Signed, as the server offers only signed builds.
  const releaseKey = testReleaseKey();
  releaseKey.signBuild(binaries.dir, "9.9.9", "linux", "amd64");
  releaseKey.publish(binaries.dir);
  ({ p, admin } = await fixture.start({ AGENT_BINARY_DIR: binaries.dir }));
}, 90_000);

afterAll(async () => {
  await fixture.stop();
  binaries.remove();
  state.remove();
});

const trustFile = () =>
  JSON.parse(readFileSync(join(state.dir, "server.json"), "utf8")) as {
    current_pk: string;
    successor_pk: string | null;
    successor_expiry: string | null;
  };

describe("server key rotation and updates", () => {
  let agent: RunningAgent;
  let id = 0;
  let original = "";

  it("links, and answers an update it cannot apply with update.status failed", async () => {
    original = await serverKeyOf(p);
    agent = runAgent({ serverUrl: p.url, serverKey: original, stateDir: state.dir, backoff: { maxMs: 2000 } });
    const code = await until("a pairing code", () => {
      const e = agent.events.find((x) => x.type === "pairing_code");
      return e?.type === "pairing_code" ? e.code : undefined;
    });
    id = code.agent_id!;
    await admin.call("POST", `agents/${id}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS });
    await until("the link", () => (agent.linkedCount() > 0 ? true : undefined));

    await admin.call("POST", `agents/${id}/update`, { version: "9.9.9" });
    const failed = await until(
      "update_failed",
      async () => {
        const events = await admin.call<unknown>("GET", `agents/${id}/events`);
        const list = (Array.isArray(events) ? events : (events as { items: unknown[] }).items) as {
          event_type: string;
          detail: Record<string, unknown> | null;
        }[];
        return list.find((e) => e.event_type === "update_failed");
      },
      10_000,
    );
    expect(failed.detail).toMatchObject({
      version: "9.9.9",
      error: "this agent was built without a release public key, so it cannot verify any build",
    });
    // Nothing downloaded or replaced.
    expect(existsSync(join(state.dir, "bin"))).toBe(false);
  }, 60_000);

  it("stores the successor key.rotate announces and links with it next time", async () => {
    const status = await admin.call<{ successor_key_fingerprint: string }>("POST", "agents/server-key/rotate");
    const rotation = await until("key.rotate", () => agent.events.find((e) => e.type === "server_key_rotation"), 10_000);
    if (rotation.type !== "server_key_rotation") throw new Error("unreachable");
    expect(trustFile().successor_pk).toBe(rotation.successor_pk);
    expect(status.successor_key_fingerprint).toBe(fingerprintOf(rotation.successor_pk));

    await agent.stop();
    // A new process on the same state directory, with no key given: it uses what it stored.
    agent = runAgent({ serverUrl: p.url, stateDir: state.dir, backoff: { maxMs: 2000 } });
    await until("the link with the successor", () => (agent.linkedCount() > 0 ? true : undefined), 15_000);
    expect(trustFile()).toMatchObject({ current_pk: rotation.successor_pk, successor_pk: null });
    await agent.stop();
  }, 60_000);

  it("falls back to the current key when the successor fails", async () => {
    const current = trustFile().current_pk;
    const bogus = "11".repeat(32);
    writeFileSync(
      join(state.dir, "server.json"),
      JSON.stringify({ ...trustFile(), successor_pk: bogus, successor_expiry: new Date(Date.now() + 86_400_000).toISOString() }),
    );
    agent = runAgent({ serverUrl: p.url, stateDir: state.dir, backoff: { maxMs: 2000 } });
    await until("the link with the current key", () => (agent.linkedCount() > 0 ? true : undefined), 15_000);
    // The failed successor stays for a later try until its expiry; the current key keeps working.
    expect(trustFile()).toMatchObject({ current_pk: current, successor_pk: bogus });
    await agent.stop();
  }, 30_000);
});
