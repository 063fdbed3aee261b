// The inventory lists' tools in a real browser against the product started as the README says: a filter
// by a related record (site, environment) through the search picker, kept in the URL across a reload;
// columns chosen per list and remembered by the browser; the filtered list exported as CSV (the columns
// shown, every matching row); one field set on the selected rows at once; and a record's History tab
// from the audit log, with what changed before and after, which a viewer reads too (docs/adr/0483).
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const ADMIN = { email: "listtools@example.com", password: "a long passphrase for list tools" };

type Rec = { id: number; name: string; role: string | null; site_id: number | null };

describe.skipIf(!hasChromium)("web UI inventory list tools in a real browser", () => {
  const s = signedInSuite("127.0.0.212", ADMIN);
  const create = async (path: string, body: Record<string, unknown>) => ((await s.api("POST", path, body)) as { id: number }).id;
  const hardware = async () => ((await s.api("GET", "/hardware?sort=name&limit=100")) as { items: Rec[] }).items;

  it("filters hardware by site through the picker, kept in the URL", async () => {
    const { page } = s;
    const east = await create("/sites", { name: "dc-east" });
    const west = await create("/sites", { name: "dc-west" });
    for (const [name, site] of [
      ["east-01", east],
      ["east-02", east],
      ["west-01", west],
    ] as const)
      await create("/hardware", { name, site_id: site, vendor: "acme" });
    await page.goto(`${s.product.url}/inventory/hardware`);
    await seen(page.getByRole("link", { name: "west-01" }));
    await page.getByRole("combobox", { name: "Site" }).fill("east");
    await (await seen(page.getByRole("option", { name: /dc-east/ }))).click();
    await seen(page.getByText("1–2 of 2"));
    expect(new URL(page.url()).searchParams.get("site_id")).toBe(String(east));
    expect(await page.getByRole("link", { name: "west-01" }).count()).toBe(0);
    await page.reload();
    await seen(page.getByText("1–2 of 2"));
    await expect.poll(() => page.getByRole("combobox", { name: "Site" }).inputValue(), { timeout: 15_000 }).toBe("dc-east");
    await shot(page, "70-hardware-filtered-by-site");
  });

  it("shows the columns chosen, by name for a reference, remembered after a reload", async () => {
    const { page } = s;
    await page.getByText("Columns", { exact: true }).click();
    await page.getByRole("checkbox", { name: "Site" }).check();
    await page.getByRole("checkbox", { name: "Vendor" }).uncheck();
    const table = page.locator("table");
    await seen(table.getByRole("columnheader", { name: "Site" }));
    expect(await table.getByRole("columnheader", { name: "Vendor" }).count()).toBe(0);
    // The site column names the site and links to it.
    const row = table.locator("tbody tr").filter({ hasText: "east-01" });
    await seen(row.getByRole("link", { name: "dc-east" }));
    await shot(page, "71-hardware-columns");
    await page.reload();
    await seen(table.getByRole("columnheader", { name: "Site" }));
    expect(await table.getByRole("columnheader", { name: "Vendor" }).count()).toBe(0);
  });

  it("exports the filtered list as CSV with the columns shown", async () => {
    const { page } = s;
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^hardware-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parse(readFileSync((await download.path())!, "utf8"), { bom: true }) as string[][];
    const east = (await hardware()).find((h) => h.name === "east-01")!.site_id;
    expect(rows[0]).toEqual(["name", "role", "ip_address", "memory_gb", "effective_status", "site_id"]);
    expect(rows.slice(1).map((r) => [r[0], r[5]])).toEqual([
      ["east-01", String(east)],
      ["east-02", String(east)],
    ]);
  });

  it("sets one field on the selected rows at once", async () => {
    const { page } = s;
    await page.getByLabel("Select all on this page").check();
    const bar = await seen(page.getByRole("region", { name: "Bulk actions" }));
    await bar.getByRole("button", { name: "Edit field…" }).click();
    const dialog = await seen(page.getByRole("dialog", { name: "Edit 2 hardware nodes" }));
    await dialog.getByLabel("Field").selectOption({ label: "Role" });
    await dialog.getByLabel("New role").fill("db-server");
    await shot(page, "72-bulk-edit-dialog");
    await dialog.getByRole("button", { name: "Set on 2 hardware nodes" }).click();
    await seen(page.getByText("Role set on 2 hardware nodes."));
    expect(Object.fromEntries((await hardware()).map((h) => [h.name, h.role]))).toEqual({
      "east-01": "db-server",
      "east-02": "db-server",
      "west-01": null,
    });
    // The list shows it once reloaded after the change.
    await seen(page.locator("tbody tr").filter({ hasText: "east-02" }).getByText("db-server"));
  });

  it("shows a record's history from the audit log, with each change before and after, to a viewer too", async () => {
    const { page } = s;
    const node = (await hardware()).find((h) => h.name === "east-01")!;
    await page.goto(`${s.product.url}/inventory/hardware/${node.id}`);
    await page.getByRole("link", { name: "History" }).click();
    expect(new URL(page.url()).pathname).toBe(`/inventory/hardware/${node.id}/history`);
    const history = await seen(page.getByRole("region", { name: "History" }));
    const update = history.locator("li").filter({ hasText: "hardware.update" });
    await seen(update);
    const roleRow = update.getByRole("row", { name: /role/ });
    expect(await roleRow.locator("td").allTextContents()).toEqual(["—", "db-server"]);
    expect(await update.textContent()).toContain(ADMIN.email);
    await seen(history.locator("li").filter({ hasText: "hardware.create" }));
    await shot(page, "73-hardware-history");

    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
    const password = "a passphrase for the viewer";
    await s.api("POST", "/admin/users", { email: "viewer@example.com", role: "viewer", password, must_change_password: false });
    const context = await s.browser.newContext();
    const p = await context.newPage();
    await p.goto(`${s.product.url}/inventory/hardware/${node.id}/history`);
    await p.getByLabel("Email").fill("viewer@example.com");
    await p.getByLabel("Password").fill(password);
    await p.getByRole("button", { name: "Sign in" }).click();
    // A viewer reads the record's history as the administrator does (GET /history, the read scope).
    const theirs = await seen(p.getByRole("region", { name: "History" }));
    const seenUpdate = theirs.locator("li").filter({ hasText: "hardware.update" });
    await seen(seenUpdate);
    expect(await seenUpdate.getByRole("row", { name: /role/ }).locator("td").allTextContents()).toEqual(["—", "db-server"]);
    await context.close();
  });
});
