// `promtool check metrics` (Debian's prometheus package; .ci/run installs it) on a scrape of a populated
// lab. docs/architecture.md, platform notes: exit 1 is a parse error; exit 3 carries lint findings, of which only two kinds are
// expected — the spec's gauges named *_total, and the _gb/_mb units in the spec's names.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_FAMILIES, INFO } from "../../../shared/metrics/counts.ts";
import { PER_RESOURCE_FAMILIES } from "../../../shared/metrics/per-resource.ts";
import { type MetricsApp, metricsApp, populateLab } from "./lab.ts";

const EXPECTED_FINDINGS = [
  /^(svc_[a-z_]+_total) non-counter metrics should not have "_total" suffix$/,
  /^(svc_[a-z_]+_(?:gb|mb)(?:_total)?) metric names should not contain abbreviated units$/,
];
const FAMILIES = new Set([INFO, ...COUNT_FAMILIES, ...PER_RESOURCE_FAMILIES].map((f) => f.name));

function promtool(input: string): { status: number | null; out: string; error?: Error } {
  const r = spawnSync("promtool", ["check", "metrics"], { input, encoding: "utf8", timeout: 20_000 });
  return { status: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}`, ...(r.error ? { error: r.error } : {}) };
}

let m: MetricsApp;
let body: string;

beforeAll(async () => {
  m = await metricsApp();
  const admin = await m.bootstrap();
  await populateLab(m.t.sql);
  const res = await m.get("/api/v1/metrics", admin);
  expect(res.status).toBe(200);
  body = await res.text();
});
afterAll(async () => m?.t.close());

describe("promtool check metrics", () => {
  it("is installed (Debian package prometheus)", () => {
    const r = promtool("");
    expect(r.error, "promtool is missing: apt-get install prometheus").toBeUndefined();
  });

  it("notices a parse error (the check is live)", () => {
    expect(promtool('svc_broken{name="unterminated} 1\n').status).toBe(1);
  });

  it("parses a scrape of a populated lab with only the two expected kinds of finding", () => {
    const r = promtool(body);
    expect(r.out).not.toMatch(/error while linting|parsing error/);
    expect([0, 3], r.out).toContain(r.status);
    const findings = r.out.split("\n").filter((l) => l.trim() !== "");
    const unexpected = findings.filter((l) => !EXPECTED_FINDINGS.some((re) => re.test(l)));
    expect(unexpected).toEqual([]);
    // Each finding names one of our families.
    for (const l of findings) expect(FAMILIES.has(l.split(" ")[0]!), l).toBe(true);
  });

  it("would report a missing HELP line (any other finding fails the test above)", () => {
    const r = promtool(body.replace("# HELP svc_docs_total Documentation entries.\n", ""));
    expect(r.status).toBe(3);
    expect(r.out).toMatch(/svc_docs_total no help text/);
  });
});
