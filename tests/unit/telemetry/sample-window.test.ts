import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { SamplesBody, TelemetryConfigBody, TelemetryQuery } from "../../../shared/schemas/telemetry.ts";
import { CLOCK_SKEW_MS, sampleTimeIssues } from "../../../shared/verbs/telemetry/sample-window.ts";

const now = new Date("2026-11-22T12:00:00Z");
const at = (ms: number) => new Date(now.getTime() + ms);
const DAY = 86_400_000;

describe("sampleTimeIssues", () => {
  it("accepts now, the skew boundary and the warm boundary", () => {
    expect(sampleTimeIssues([now, at(CLOCK_SKEW_MS), at(-30 * DAY)], now, 30)).toEqual([]);
  });

  it("names every sample beyond the skew or older than telemetry_warm_days by index", () => {
    const issues = sampleTimeIssues([now, at(CLOCK_SKEW_MS + 1), at(-DAY), at(-30 * DAY - 1), at(5 * 60_000)], now, 30);
    expect(issues.map((i) => [i.loc.join("."), i.type])).toEqual([
      ["body.samples.1.ts", "future_timestamp"],
      ["body.samples.3.ts", "stale_timestamp"],
      ["body.samples.4.ts", "future_timestamp"],
    ]);
    expect(issues[2]!.msg).toBe("Is 300 s in the future; at most 60 s of clock skew is allowed.");
  });

  it("follows the warm-days setting", () => {
    expect(sampleTimeIssues([at(-8 * DAY)], now, 7)).toHaveLength(1);
    expect(sampleTimeIssues([at(-8 * DAY)], now, 9)).toHaveLength(0);
  });
});

const paths = (schema: v.GenericSchema, value: unknown) => {
  const r = v.safeParse(schema, value);
  return r.success ? [] : r.issues.map((i) => (i.path ?? []).map((p) => p.key).join("."));
};

describe("sample schema", () => {
  const ts = "2026-11-22T12:00:00Z";
  it("accepts a full sample and parses ts with its zone", () => {
    const r = v.parse(SamplesBody, {
      samples: [
        {
          ts: "2026-11-22T13:00:00.5+01:00",
          cpu_pct: 0,
          mem_pct: 100,
          disk_pct: 55.5,
          temp_c: -5,
          net_rx_bps: 0,
          net_tx_bps: 1e9,
          uptime_s: 10,
          status: "up",
        },
      ],
    });
    expect(r.samples[0]!.ts.toISOString()).toBe("2026-11-22T12:00:00.500Z");
  });

  it("names each bad field by index; percentages are 0-100", () => {
    expect(
      paths(SamplesBody, {
        samples: [
          { ts, cpu_pct: 50 },
          { ts, cpu_pct: 100.1 },
          { ts, mem_pct: -1 },
          { ts, disk_pct: 101, status: "flapping" },
        ],
      }),
    ).toEqual(["samples.1.cpu_pct", "samples.2.mem_pct", "samples.3.disk_pct", "samples.3.status"]);
  });

  it("refuses timestamps without a zone or date, unknown fields, empty and oversized batches", () => {
    expect(paths(SamplesBody, { samples: [{ ts: "2026-11-22T12:00:00" }, { ts: "yesterday" }, { ts, colour: 1 }] })).toEqual([
      "samples.0.ts",
      "samples.1.ts",
      "samples.2.colour",
    ]);
    expect(paths(SamplesBody, { samples: [] })).toEqual(["samples"]);
    expect(paths(SamplesBody, { samples: Array.from({ length: 1001 }, () => ({ ts })) })).toEqual(["samples"]);
    expect(paths(SamplesBody, { samples: Array.from({ length: 1000 }, () => ({ ts })) })).toEqual([]);
  });
});

describe("config and query schemas", () => {
  it("bounds interval_s to 10-3600 and knows only v2c, v1 and v3", () => {
    expect(paths(TelemetryConfigBody, { interval_s: 9, snmp_version: "v4", port: 0 }).sort()).toEqual([
      "interval_s",
      "port",
      "snmp_version",
    ]);
    expect(paths(TelemetryConfigBody, { interval_s: 3600, snmp_version: "v1", options: { timeout_ms: 500, retries: 0 } })).toEqual([]);
    expect(paths(TelemetryConfigBody, { snmp_version: "v3", username: "u", security_level: "authNoPriv", auth_key: "8 chars!" })).toEqual(
      [],
    );
    expect(paths(TelemetryConfigBody, { options: { community: "x" } })).toEqual(["options.community"]);
  });

  it("ignores the read-only fields a client sends back", () => {
    expect(v.parse(TelemetryConfigBody, { community_set: true, last_error: "x", hardware_id: 3, interval_s: 30 })).toEqual({
      interval_s: 30,
    });
  });

  it("takes either since or hours, and until not before since", () => {
    expect(paths(TelemetryQuery, { since: "2026-11-22T00:00:00Z", hours: "2" })).toEqual(["hours"]);
    expect(paths(TelemetryQuery, { since: "2026-11-22T00:00:00Z", until: "2026-11-21T00:00:00Z" })).toEqual(["until"]);
    expect(v.parse(TelemetryQuery, { hours: "24", limit: "10" })).toEqual({ hours: 24, limit: 10 });
  });
});
