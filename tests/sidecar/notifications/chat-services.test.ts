// The chat notifiers of adr/0444 end to end: sinks created through the API (secrets sealed in the vault,
// answered masked), a monitor's failure and its recovery through the queue and the worker to loopback
// peers. What a recorded fixture cannot show: the alert and its recovery carry the same incident key, so
// Google Chat threads them, Zulip files them under one topic and Home Assistant replaces the one with
// the other; Matrix is sent with PUT under a transaction ID of its own per alert.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotifierType, secretKeys } from "../../../shared/domain/notifications/notifiers/index.ts";
import { createHarness, type Harness, type Peer, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ timeoutMs: 2000, maxAttempts: 2 });
});
afterAll(async () => h?.close());

const states = async (sinkId: number): Promise<string[]> =>
  (await (await h.req("GET", `notifications/deliveries?sink_id=${sinkId}`, h.admin)).json()).items.map((d: { state: string }) => d.state);

describe("chat services, an alert and its recovery", () => {
  it("deliver both to every chat service, keyed by the same incident where the service can use it", async () => {
    const answers: Record<string, { status: number; contentType: string; body: string }> = {
      matrix: { status: 200, contentType: "application/json", body: '{"event_id":"$e"}' },
      mattermost: { status: 200, contentType: "text/plain", body: "ok" },
      rocket_chat: { status: 200, contentType: "application/json", body: '{"success":true}' },
      google_chat: { status: 200, contentType: "application/json", body: '{"name":"spaces/A/messages/B"}' },
      zulip: { status: 200, contentType: "application/json", body: '{"id":1,"msg":"","result":"success"}' },
      webex: { status: 200, contentType: "application/json", body: '{"id":"m"}' },
      home_assistant: { status: 200, contentType: "application/json", body: "[]" },
      signal: { status: 201, contentType: "application/json", body: '{"timestamp":"1"}' },
    };
    const peers: Record<string, Peer> = {};
    for (const [type, answer] of Object.entries(answers)) peers[type] = await startPeer(() => answer);
    const configs: Record<string, Record<string, unknown>> = {
      matrix: { base_url: peers.matrix!.url, access_token: "syt_secret", room_id: "!r:example.org" },
      mattermost: { webhook_url: `${peers.mattermost!.url}/hooks/key` },
      rocket_chat: { webhook_url: `${peers.rocket_chat!.url}/hooks/id/token` },
      google_chat: { webhook_url: `${peers.google_chat!.url}/v1/spaces/A/messages?key=k&token=t` },
      zulip: { base_url: peers.zulip!.url, bot_email: "bot@example.org", api_key: "zk", stream: "ops" },
      webex: { base_url: peers.webex!.url, bot_token: "wt", to: "Y2lzY29zcGFyazovL3VzL1JPT00vYQ" },
      home_assistant: { base_url: peers.home_assistant!.url, token: "hat", service: "mobile_app_pixel_8" },
      signal: { base_url: peers.signal!.url, number: "+4915112345678", recipients: "+4917612345678" },
    };
    const sinks: Record<string, number> = {};
    try {
      for (const [type, config] of Object.entries(configs)) {
        const sink = await h.sink(type, config);
        sinks[type] = sink.id;
        // The secret went to the vault: a read shows only that it is set.
        const res = await h.req("GET", "notifications/sinks", h.admin);
        expect(res.status).toBe(200);
        const read = (await res.json()).items.find((x: { id: number }) => x.id === sink.id);
        for (const key of secretKeys(type as NotifierType)) expect(read.provider_config[`${key}_set`], `${type}.${key}`).toBe(true);
        expect(JSON.stringify(read)).not.toMatch(/syt_secret|\/hooks\/key|key=k|"zk"|"wt"|"hat"/);
      }
      const types = Object.keys(configs);
      const all = (state: string, n: number) => async () => {
        for (const type of types) {
          const s = await states(sinks[type]!);
          if (s.length !== n || s.some((x) => x !== state)) return false;
        }
        return true;
      };
      await h.enqueue({ kind: "monitor.down", monitor_id: 4401, title: "web-1 is down", body: "web-1 (http) is down: timeout" });
      await h.until(all("delivered", 1), "the alert delivered everywhere");
      await h.enqueue({
        kind: "monitor.up",
        severity: "info",
        monitor_id: 4401,
        title: "web-1 is up again",
        body: "web-1 (http) recovered",
      });
      await h.until(all("delivered", 2), "the recovery delivered everywhere");

      for (const type of types) expect(peers[type]!.received, type).toHaveLength(2);
      const bodies = (type: string) => peers[type]!.received.map((r) => r.body);

      const [gFiring, gOver] = bodies("google_chat").map((b) => JSON.parse(b).thread.threadKey as string);
      expect(gFiring).toMatch(/^ctl-incident-\d+$/);
      expect(gOver).toBe(gFiring);

      const [zFiring, zOver] = bodies("zulip").map((b) => new URLSearchParams(b).get("topic"));
      expect(zOver).toBe(zFiring);
      expect(zFiring).toBe(gFiring);

      const [haFiring, haOver] = bodies("home_assistant").map((b) => JSON.parse(b).data);
      expect(haOver.tag).toBe(haFiring.tag);
      expect(haFiring.priority).toBe("high");
      expect(haOver.priority).toBeUndefined();

      const matrix = peers.matrix!.received;
      expect(matrix.map((r) => r.method)).toEqual(["PUT", "PUT"]);
      expect(matrix[0]!.url.startsWith("/_matrix/client/v3/rooms/%21r%3Aexample.org/send/m.room.message/")).toBe(true);
      expect(matrix[1]!.url).not.toBe(matrix[0]!.url);
      expect(matrix[0]!.headers.authorization).toBe("Bearer syt_secret");
      expect(JSON.parse(matrix[1]!.body).body).toMatch(/^✅ web-1 is up again/);
    } finally {
      for (const peer of Object.values(peers)) await peer.close();
    }
  });
});
