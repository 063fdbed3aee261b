// The check-type registry (issue 27 item 1): every registered type has its executor, its form entry and
// its agent readiness from the one entry, and the executors sit where both the sidecar and the agent
// import them without net/ or agent/ reaching into sidecar/.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  CHECK_TYPE_REGISTRY,
  CHECK_TYPES,
  checkBudget,
  DEFAULT_INTERVAL_SECS,
  PROBE_CHECK_TYPES,
  sourceOf,
} from "../../shared/domain/monitors/check-types.ts";
import { effectiveConfig } from "../../shared/domain/monitors/config.ts";
import { EXECUTORS } from "../../net/checks/run-check.ts";
import { CONFIG_FIELDS } from "../../web/src/monitoring/check-config.ts";
import { PROBE_READINESS } from "../../agent/probes/readiness.ts";
import { monitors } from "../../shared/db/schema/monitors.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsFiles = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
const importsOf = (file: string) =>
  [...readFileSync(join(root, file), "utf8").matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((s) => s.startsWith("."))
    .map((s) => relative(root, join(root, file, "..", s)));

describe("the check-type registry", () => {
  it("names each type once: executor, form entry and agent readiness follow it", () => {
    // Probe types have an executor; push and group types (source push/derived) have none and no runner.
    expect(Object.keys(EXECUTORS)).toEqual([...PROBE_CHECK_TYPES]);
    for (const t of CHECK_TYPES) if (sourceOf(t) !== "probe") expect(CHECK_TYPE_REGISTRY[t].runners, t).toEqual([]);
    expect(Object.keys(CONFIG_FIELDS).sort()).toEqual([...CHECK_TYPES].sort());
    expect(PROBE_READINESS.map((r) => `${r.collector}:${r.state}`)).toEqual(
      PROBE_CHECK_TYPES.map((t) => `probe.${t}:${CHECK_TYPE_REGISTRY[t].runners.includes("agent") ? "ready" : "unavailable"}`),
    );
  });

  it("holds the defaults, timeouts and budgets the runner applies", () => {
    expect(effectiveConfig("tcp", {})).toEqual({ port: null, ports: null, timeout: 1 });
    expect(effectiveConfig("dns", { timeout: 2 }).timeout).toBe(2);
    expect(checkBudget("http", {})).toEqual({ timeoutMs: 10_000, budgetMs: 10_000 });
    expect(checkBudget("http", { timeout: 500 })).toEqual({ timeoutMs: 120_000, budgetMs: 120_000 });
    // icmp: 0.2 s between its packets and a second for ping itself.
    expect(checkBudget("icmp", { packet_count: 5 })).toEqual({ timeoutMs: 1500, budgetMs: 1500 + 800 + 1000 });
    expect(monitors.interval_secs.default).toBe(DEFAULT_INTERVAL_SECS);
  });

  // The whole net/ -> sidecar/ rule is tests/unit/runtime-neutral.test.ts's; this is the checks' part of it.
  it("net/ and agent/ import nothing from sidecar/monitors/ (the executors use net/, never the reverse)", () => {
    const offences = ["net", "agent"].flatMap((dir) =>
      tsFiles(dir).flatMap((f) =>
        importsOf(f)
          .filter((i) => i.startsWith("sidecar/monitors/"))
          .map((i) => `${f} -> ${i}`),
      ),
    );
    expect(offences).toEqual([]);
  });
});
