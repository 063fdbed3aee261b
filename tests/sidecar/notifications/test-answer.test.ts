// POST /notifications/sinks/{id}/test answers the receiver's own answer (docs/adr/0449-sink-test-answers.md):
// the test is queued, the notification worker on the same runtime sends it, and the route answers the
// attempt: a loopback receiver that refuses it (HTTP 500) makes it ok false with that status, one that
// accepts it ok true. A test is one attempt: the refused one is dead, not retried.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness, startPeer } from "./support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const test = async (sinkId: number) => {
  const res = await h.req("POST", `notifications/sinks/${sinkId}/test`, h.admin);
  expect(res.status).toBe(200);
  return res.json();
};

describe("sink test answers", () => {
  it("a receiver answering HTTP 500: ok false, its status and error, the delivery dead after its one attempt", async () => {
    const peer = await startPeer(() => ({ status: 500, body: "boom" }));
    try {
      const sink = await h.sink("webhook", { url: `${peer.url}/hook` });
      const answer = await test(sink.id);
      expect(answer).toMatchObject({
        ok: false,
        error: "Endpoint returned HTTP 500",
        state: "dead",
        http_status: 500,
        attempt_outcome: "failed",
      });
      expect(answer.duration_ms).toBeGreaterThanOrEqual(0);
      expect(peer.received).toHaveLength(1);
      expect(JSON.parse(peer.received[0]!.body).data.title).toBe("Test notification");
      const list = await (await h.req("GET", "notifications/deliveries?alert_kind=notification.test", h.admin)).json();
      const d = list.items.find((x: { id: number }) => x.id === answer.delivery_id);
      expect(d).toMatchObject({ state: "dead", attempt_count: 1, max_attempts: 1 });
    } finally {
      await peer.close();
    }
  });

  it("a receiver answering HTTP 200: ok true, delivered", async () => {
    const peer = await startPeer(() => ({ status: 200 }));
    try {
      const sink = await h.sink("ntfy", { base_url: peer.url, topic: "alerts" });
      const answer = await test(sink.id);
      expect(answer).toMatchObject({ ok: true, error: null, state: "delivered", http_status: 200, attempt_outcome: "delivered" });
      expect(peer.received).toHaveLength(1);
    } finally {
      await peer.close();
    }
  });

  it("a refusal the service answers with 200 (DingTalk's errcode) is not ok", async () => {
    const peer = await startPeer(() => ({
      status: 200,
      contentType: "application/json",
      body: '{"errcode":300001,"errmsg":"token is not exist"}',
    }));
    try {
      const sink = await h.sink("dingtalk", { webhook_url: `${peer.url}/robot/send?access_token=gone` });
      const answer = await test(sink.id);
      expect(answer).toMatchObject({ ok: false, state: "dead", http_status: 200, attempt_outcome: "failed" });
      expect(answer.error).toContain("errcode 300001");
    } finally {
      await peer.close();
    }
  });
});
