// The agent's reconnect backoff (exponential ceiling, full jitter, reset) and its spool (acknowledged by
// ping ack_seq per connection, re-sent after a reconnect, bounded by bytes).
import { describe, expect, it } from "vitest";
import { Backoff } from "../../../agent/backoff.ts";
import { Spool } from "../../../agent/spool.ts";

describe("Backoff", () => {
  it("doubles the ceiling from 1 s to 60 s and draws below it", () => {
    const top = new Backoff({ random: () => 0.999999 });
    const draws = Array.from({ length: 9 }, () => top.next());
    expect(draws).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    const bottom = new Backoff({ random: () => 0 });
    expect(Array.from({ length: 5 }, () => bottom.next())).toEqual([0, 0, 0, 0, 0]);
  });

  it("spreads draws across [0, cap] (full jitter) and starts over after reset", () => {
    const b = new Backoff();
    for (let i = 0; i < 10; i++) b.next();
    const draws = Array.from({ length: 200 }, () => b.next());
    expect(Math.min(...draws)).toBeLessThan(15_000);
    expect(Math.max(...draws)).toBeGreaterThan(45_000);
    expect(draws.every((d) => d >= 0 && d <= 60_000)).toBe(true);
    b.reset();
    expect(b.cap).toBe(1000);
  });
});

describe("Spool", () => {
  const payload = (n: number) => ({ sample_id: n.toString(16).padStart(32, "0") });

  it("drops what a ping of the connection it was sent on acknowledges, nothing else", () => {
    const s = new Spool(1 << 20);
    const a = s.add("telemetry.host", payload(1));
    const b = s.add("telemetry.host", payload(2));
    const c = s.add("probe.result", payload(3));
    s.markSent(a, 1, 5);
    s.markSent(b, 1, 6);
    s.markSent(c, 1, 7);
    expect(s.acknowledge(2, 100)).toEqual([]); // another connection's ack_seq means nothing here
    expect(s.acknowledge(1, 6)).toEqual([a, b]);
    expect(s.depth).toBe(1);
    expect(s.unsent(1)).toEqual([]);
    // After a reconnect, the unacknowledged entry is offered again.
    expect(s.unsent(2)).toEqual([c]);
    s.markSent(c, 2, 0);
    expect(s.acknowledge(2, 0)).toEqual([c]);
    expect(s.stats()).toMatchObject({ spool_depth: 0, spool_bytes: 0, spool_oldest_ts: null });
    const d = s.add("probe.result", payload(4));
    s.drop(d);
    s.drop(d);
    expect(s.stats()).toMatchObject({ spool_depth: 0, spool_bytes: 0 });
  });

  it("evicts the oldest entries past its byte cap and counts them", () => {
    const one = new TextEncoder().encode(JSON.stringify(payload(0))).length;
    const s = new Spool(one * 3);
    for (let i = 0; i < 5; i++) s.add("telemetry.host", payload(i), new Date(Date.UTC(2026, 0, 1, 0, i)));
    expect(s.depth).toBe(3);
    expect(s.unsent(1).map((e) => e.payload.sample_id)).toEqual([payload(2), payload(3), payload(4)].map((p) => p.sample_id));
    expect(s.stats()).toEqual({
      spool_depth: 3,
      spool_bytes: one * 3,
      spool_evicted_frames: 2,
      spool_evicted_bytes: one * 2,
      spool_oldest_ts: "2026-01-01T00:02:00.000Z",
      spool_newest_ts: "2026-01-01T00:04:00.000Z",
    });
  });
});
