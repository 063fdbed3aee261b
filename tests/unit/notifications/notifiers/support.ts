// The recorded-fixture test every notification provider has (notifiers/README.md): its cases are
// tests/fixtures/notifications/<type>.json (format: tests/helpers/notification-fixtures.ts). An "http" provider's case is rendered and sent by the one
// generic HTTP sender to a loopback receiver, which must get the documented request (method, path, the
// fixture's headers, the body: JSON, or the exact text when the fixture gives a string) and answer the recorded response with the given outcome. The "smtp"
// provider's case is the mail it renders (sending it is tests/sidecar/notifications/delivery.test.ts).
// `{peer}` in a config or secret value stands for the receiver's base URL.
import { describe, expect, it } from "vitest";
import { nodeOutboundHttp } from "../../../../net/outbound-http.ts";
import type { Notifier } from "../../../../shared/domain/notifications/notifiers/notifier.ts";
import { sendHttp } from "../../../../sidecar/notifications/send-http.ts";
import type { DeliveryJob } from "../../../../shared/verbs/notifications/delivery-job.ts";
import type { NotifierType } from "../../../../shared/domain/notifications/notifiers/index.ts";
import { TEST_OUTBOUND_POLICY } from "../../../helpers/env.ts";
import { startPeer } from "../../../helpers/http-peer.ts";
import { DEFAULT_ALERT, type FixtureCase, readFixture } from "../../../helpers/notification-fixtures.ts";

const withPeer = <T extends Record<string, unknown>>(values: T, peer: string): T =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? v.replaceAll("{peer}", peer) : v])) as T;

function jobOf(provider: Notifier, c: FixtureCase, peer: string): DeliveryJob {
  return {
    delivery_id: 1,
    attempt: 1,
    sink: {
      id: 1,
      provider_type: provider.type as NotifierType,
      config: withPeer(c.config, peer),
      secrets: withPeer(c.secrets ?? {}, peer),
    },
    message: { ...DEFAULT_ALERT, ...c.message },
  };
}

/** The fixture cases of `provider`, one test each. */
export function providerFixtureTests(provider: Notifier): void {
  const fixture = readFixture(provider.type);
  describe(`${provider.type} provider (tests/fixtures/notifications/${provider.type}.json)`, () => {
    it("has recorded cases", () => expect(fixture.cases.length).toBeGreaterThan(0));
    for (const c of fixture.cases) {
      it(c.name, async () => {
        const nowSecs = c.now_secs ?? 1793613600;
        if (provider.transport === "smtp") {
          const { sink, message } = jobOf(provider, c, "");
          expect(provider.render({ config: sink.config, secrets: sink.secrets, message, nowSecs })).toEqual(c.mail);
          return;
        }
        const peer = await startPeer(() => c.response ?? { status: 200 });
        try {
          const outcome = await sendHttp(provider, jobOf(provider, c, peer.url), 5000, nowSecs, {
            outbound: nodeOutboundHttp(),
            policy: TEST_OUTBOUND_POLICY,
          });
          expect(outcome.outcome).toBe(c.outcome ?? "delivered");
          expect(peer.received).toHaveLength(1);
          const got = peer.received[0]!;
          expect({ method: got.method, path: got.url }).toEqual({ method: c.request!.method, path: c.request!.path });
          for (const [name, value] of Object.entries(c.request!.headers)) expect(got.headers[name], name).toBe(value ?? undefined);
          const want = c.request!.body;
          if (typeof want === "string") expect(got.body).toBe(want);
          else expect(JSON.parse(got.body)).toEqual(want);
        } finally {
          await peer.close();
        }
      });
    }
  });
}
