// Custom fields in a real browser against the product started as the README says (docs/custom-fields.md):
// an administrator defines a selection field for hardware in Settings, sets it on a hardware node's
// form, sees it on the node's page, shows it as a list column and filters the list by it.
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const ADMIN = { email: "customfields@example.com", password: "a long passphrase for custom fields" };

describe.skipIf(!hasChromium)("custom fields in a real browser", () => {
  const s = signedInSuite("127.0.0.185", ADMIN);
  const create = async (path: string, body: Record<string, unknown>) => ((await s.api("POST", path, body)) as { id: number }).id;
  let nodeA = 0;

  it("an administrator defines a field in Settings", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/settings/custom-fields`);
    await (await seen(page.getByRole("button", { name: "New custom field" }))).click();
    const form = await seen(page.getByRole("form", { name: "New custom field" }));
    await form.getByLabel("Name", { exact: true }).fill("tier");
    await form.getByLabel("Label", { exact: true }).fill("Tier");
    await form.getByRole("checkbox", { name: "Hardware" }).check();
    await form.getByLabel("Type").selectOption("selection");
    await form.getByLabel("Choices").fill("gold, silver");
    await shot(page, "custom-fields-definition-form");
    await form.getByRole("button", { name: "Create field" }).click();
    const row = await seen(page.locator("table tbody tr").filter({ hasText: "tier" }));
    expect(await row.textContent()).toContain("Selection");
    const defs = (await s.api("GET", "/custom-fields?kind=hardware")) as { items: { name: string; choices: string[] }[] };
    expect(defs.items.map((d) => [d.name, d.choices])).toEqual([["tier", ["gold", "silver"]]]);
  });

  it("sets it on a hardware form and shows it on the node's page", async () => {
    const { page } = s;
    nodeA = await create("/hardware", { name: "cf-node-a" });
    await create("/hardware", { name: "cf-node-b", custom_fields: { tier: "silver" } });
    await page.goto(`${s.product.url}/inventory/hardware/${nodeA}/edit`);
    const tier = await seen(page.getByLabel("Tier"));
    await tier.selectOption("gold");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`**/inventory/hardware/${nodeA}`);
    const shown = await seen(page.locator("[data-custom-field=tier]"));
    expect(await shown.locator("dt").textContent()).toBe("Tier");
    expect(await shown.locator("dd").textContent()).toBe("gold");
    expect(((await s.api("GET", `/hardware/${nodeA}`)) as { custom_fields: unknown }).custom_fields).toEqual({ tier: "gold" });
    await shot(page, "custom-fields-detail");
  });

  it("is a column to choose and a filter of the list", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/inventory/hardware`);
    await seen(page.getByRole("link", { name: "cf-node-b" }));
    await page.getByText("Columns", { exact: true }).click();
    await page.getByRole("checkbox", { name: "Tier" }).check();
    const table = page.locator("table");
    await seen(table.getByRole("columnheader", { name: "Tier" }));
    const rowB = table.locator("tbody tr").filter({ hasText: "cf-node-b" });
    expect(await rowB.locator("td").last().textContent()).toBe("silver");
    await page.getByRole("combobox", { name: "Tier" }).selectOption("gold");
    await seen(page.getByText("1–1 of 1"));
    expect(new URL(page.url()).searchParams.get("cf_tier")).toBe("gold");
    expect(await table.getByRole("link", { name: "cf-node-b" }).count()).toBe(0);
    await seen(table.getByRole("link", { name: "cf-node-a" }));
    await shot(page, "custom-fields-list");
  });
});
