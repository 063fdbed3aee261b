// The signed subscription links (docs/adr/0458-status-page-subscribers.md): a token verifies only under the
// key and for the purpose it was made for, any change to it is refused, and a confirmation always expires.
import { describe, expect, it } from "vitest";
import { mintSubscriptionToken, verifySubscriptionToken } from "../../../shared/domain/status-pages/subscription-token.ts";

const key = new Uint8Array(32).fill(1);
const later = new Date(Date.UTC(2030, 0, 1));

describe("subscription tokens", () => {
  it("round-trips its claims for its own purpose only", () => {
    const c = mintSubscriptionToken(key, { purpose: "confirm", subscriber_id: 42, expires_at: later });
    expect(verifySubscriptionToken(key, c, "confirm")).toEqual({ purpose: "confirm", subscriber_id: 42, expires_at: later });
    expect(verifySubscriptionToken(key, c, "unsubscribe")).toBeNull();
    const u = mintSubscriptionToken(key, { purpose: "unsubscribe", subscriber_id: 42, expires_at: null });
    expect(verifySubscriptionToken(key, u, "unsubscribe")).toEqual({ purpose: "unsubscribe", subscriber_id: 42, expires_at: null });
    expect(verifySubscriptionToken(key, u, "confirm")).toBeNull();
  });

  it("refuses another key, a changed field, a changed MAC and a confirmation without expiry", () => {
    const c = mintSubscriptionToken(key, { purpose: "confirm", subscriber_id: 7, expires_at: later });
    expect(verifySubscriptionToken(new Uint8Array(32).fill(2), c, "confirm")).toBeNull();
    expect(verifySubscriptionToken(key, c.replace(/^c\.7\./, "c.8."), "confirm")).toBeNull();
    const mac = c.slice(c.lastIndexOf(".") + 1);
    expect(verifySubscriptionToken(key, `${c.slice(0, -mac.length)}${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`, "confirm")).toBeNull();
    // A confirm token claiming "never expires" cannot be minted by us; one forged with the key's MAC is still refused.
    const never = mintSubscriptionToken(key, { purpose: "unsubscribe", subscriber_id: 7, expires_at: null }).replace(/^u\./, "c.");
    expect(verifySubscriptionToken(key, never, "confirm")).toBeNull();
    for (const junk of ["", "c.1.2", "c.1.2.short", `x.1.0.${"A".repeat(43)}`])
      expect(verifySubscriptionToken(key, junk, "confirm")).toBeNull();
  });
});
