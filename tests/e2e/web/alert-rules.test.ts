// The threshold alert rules screens in a real browser (docs/alert-rules.md), against the product started as
// the README says, a node's live CPU pushed through the API for the last hour:
// - the form shows the API's 422 on its field (a clear threshold on the wrong side), from a test and from a
//   save, then "Test against the last hour" says the node would have fired and cleared, and it is created;
// - the list shows its condition in one line; a sample over the threshold makes it fire, and its page
//   lists the node as firing;
// - an edit made stale by another change is a 412 with "Load their version", then saved;
// - Delete (confirmed) removes it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.218";
const ADMIN = { email: "alert-rules@example.com", password: "a long passphrase for alert rules" };
const MINUTE = 60_000;

describe.skipIf(!hasChromium)("alert rules in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  let nodeId = 0;
  // The minute the CPU went over 90 and the one it came back, as the console writes them.
  let hot: Date;
  let cool: Date;
  const clock = (d: Date) => d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    nodeId = (await s.api("POST", "/hardware", { name: "db-01" })).id as number;
    // 30 samples a minute apart ending 10 minutes ago: 40 % for 10 minutes, 95 % for 10, then 50 %.
    const start = Date.now() - 40 * MINUTE;
    const samples = Array.from({ length: 30 }, (_, i) => ({
      ts: new Date(start + i * MINUTE).toISOString(),
      cpu_pct: i < 10 ? 40 : i < 20 ? 95 : 50,
    }));
    hot = new Date(start + 10 * MINUTE);
    cool = new Date(start + 20 * MINUTE);
    await s.api("POST", `/hardware/${nodeId}/telemetry/samples`, { samples });
  }, 300_000);

  afterAll(async () => {
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("creates, tests, lists, edits and deletes a rule", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alert rules" }).click();
    await seen(page.getByRole("heading", { name: "Alert rules", level: 1 }));
    await seen(page.getByText("No alert rules yet."));
    await page.getByRole("link", { name: "New rule" }).click();
    await seen(page.getByRole("heading", { name: "New alert rule", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("CPU hot");
    await page.getByLabel("Metric").selectOption("live.cpu_pct");
    await page.getByLabel("Compare").selectOption("last");
    await page.getByLabel("Threshold", { exact: true }).fill("90");
    // Above the threshold is the wrong side for `>`: the API's 422 names the field.
    await page.getByLabel("Clear threshold").fill("95");
    await page.getByRole("button", { name: "Test against the last hour" }).click();
    const wrongSide = "the clear threshold must be at most the threshold";
    await seen(page.locator("#rule-clear-error").getByText(wrongSide));
    expect(await page.getByRole("status", { name: "Test against the last hour" }).count()).toBe(0);
    await page.getByRole("button", { name: "Create rule" }).click();
    await seen(page.locator("#rule-clear-error").getByText(wrongSide));
    expect((await s.api("GET", "/alert-rules")).total).toBe(0);

    await page.getByLabel("Clear threshold").fill("80");
    await page.getByRole("button", { name: "Test against the last hour" }).click();
    const result = await seen(page.getByRole("status", { name: "Test against the last hour" }));
    await seen(result.getByText(`would have fired at ${clock(hot)} (value 95) and cleared at ${clock(cool)} (value 50)`));
    await seen(result.getByRole("link", { name: "db-01" }));
    await shot(page, "57-alert-rule-test");

    await page.getByRole("button", { name: "Create rule" }).click();
    await seen(page.getByRole("heading", { name: "CPU hot", level: 1 }));
    const id = Number(/\/alert-rules\/(\d+)$/.exec(page.url())![1]);
    expect(await s.api("GET", `/alert-rules/${id}`)).toMatchObject({
      metric: "live.cpu_pct",
      operator: ">",
      threshold: 90,
      clear_threshold: 80,
      aggregation: "last",
      for_secs: 0,
      severity: "warning",
      scope_kind: "all",
      enabled: true,
    });
    await seen(page.getByText("The rule has not left ok on any node."));

    // A sample over the threshold now: the rule fires on the node, and its page says so.
    await s.api("POST", `/hardware/${nodeId}/telemetry/samples`, { samples: [{ ts: new Date().toISOString(), cpu_pct: 97 }] });
    await page.reload();
    const row = await seen(page.getByRole("row").filter({ hasText: "db-01" }));
    await seen(row.getByText("firing"));
    await seen(row.getByText("97", { exact: true }));

    await page.getByRole("link", { name: "Alert rules" }).first().click();
    const listed = await seen(page.locator(`tr[data-rule="${id}"]`));
    await seen(listed.getByText("live.cpu_pct > 90, clears < 80"));
    await seen(listed.getByText("1 node"));
    await shot(page, "58-alert-rules-list");

    // Someone else changes the rule while the form is open: saving is a 412 until their version is loaded.
    await listed.getByRole("link", { name: "CPU hot" }).click();
    await page.getByRole("link", { name: "Edit" }).click();
    await seen(page.getByRole("heading", { name: "Edit CPU hot", level: 1 }));
    await s.api("PATCH", `/alert-rules/${id}`, { description: "changed elsewhere" });
    await page.getByLabel("Threshold", { exact: true }).fill("85");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("button", { name: "Load their version" }).click();
    await page.getByRole("button", { name: "Load their version" }).waitFor({ state: "detached" });
    expect(await page.getByLabel("Description").inputValue()).toBe("changed elsewhere");
    await page.getByLabel("Threshold", { exact: true }).fill("85");
    await page.getByLabel("Severity").selectOption("critical");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByRole("heading", { name: "CPU hot", level: 1 }));
    await seen(page.getByText("live.cpu_pct > 85, clears < 80"));
    expect(await s.api("GET", `/alert-rules/${id}`)).toMatchObject({
      threshold: 85,
      severity: "critical",
      description: "changed elsewhere",
    });

    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("button", { name: "Delete rule" }).click();
    await seen(page.getByRole("heading", { name: "Alert rules", level: 1 }));
    await seen(page.getByText("No alert rules yet."));
    expect((await s.api("GET", "/alert-rules")).total).toBe(0);
  });
});
