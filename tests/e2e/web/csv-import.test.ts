// The bulk CSV import in a real browser against the product started as the README says (docs/csv-import.md):
// from the hardware list's "Import" button, a pasted file is checked with a dry run whose table shows what
// each row would do (an unknown site named on its row), nothing written; the fixed file is checked again
// and applied, and the list shows the new and the updated nodes.
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const ADMIN = { email: "csvimport@example.com", password: "a long passphrase for csv import" };

type Rec = { id: number; name: string; role: string | null; site_id: number | null; tags: string[] };

describe.skipIf(!hasChromium)("CSV import of hardware in a real browser", () => {
  const s = signedInSuite("127.0.0.188", ADMIN);
  const create = async (path: string, body: Record<string, unknown>) => ((await s.api("POST", path, body)) as { id: number }).id;
  const hardware = async () => ((await s.api("GET", "/hardware?q=imp-&sort=name&limit=100")) as { items: Rec[] }).items;
  let site = 0;
  let old = 0;

  it("a dry run from the list's Import shows each row's action and the error on its row, writing nothing", async () => {
    const { page } = s;
    site = await create("/sites", { name: "imp-site" });
    old = await create("/hardware", { name: "imp-old", role: "server" });
    await page.goto(`${s.product.url}/inventory/hardware`);
    await (await seen(page.getByRole("link", { name: "Import" }))).click();
    await seen(page.getByRole("heading", { name: "Import Hardware from CSV" }));
    const csv = ["id,name,role,site,tags", `,imp-new-1,web,imp-site,"a, b"`, `,imp-new-2,web,nowhere,`, `${old},imp-old,storage,,`].join(
      "\n",
    );
    await page.getByLabel("Or paste the CSV here").fill(csv);
    await page.getByRole("button", { name: "Check (dry run)" }).click();
    const table = page.getByRole("table", { name: "What each row does" });
    await seen(table.locator("tbody tr").nth(2));
    const rows = table.locator("tbody tr");
    expect(await rows.nth(0).getAttribute("data-action")).toBe("created");
    expect(await rows.nth(1).getAttribute("data-action")).toBe("error");
    expect(await rows.nth(1).textContent()).toContain('No site is named "nowhere".');
    expect(await rows.nth(2).getAttribute("data-action")).toBe("updated");
    expect(await page.getByTestId("import-totals").textContent()).toContain("1 with errors");
    // Apply stays off while the dry run found errors; nothing was written.
    expect(await page.getByRole("button", { name: "Apply" }).isDisabled()).toBe(true);
    expect((await hardware()).map((h) => h.name)).toEqual(["imp-old"]);
    await shot(page, "80-csv-import-dry-run-error");
  });

  it("the fixed file is checked again and applied; the list shows the nodes", async () => {
    const { page } = s;
    const csv = ["id,name,role,site,tags", `,imp-new-1,web,imp-site,"a, b"`, `,imp-new-2,web,,`, `${old},imp-old,storage,,`].join("\n");
    await page.getByLabel("Or paste the CSV here").fill(csv);
    await page.getByRole("button", { name: "Check (dry run)" }).click();
    await seen(page.getByText("Dry run of 3 rows: 2 to create, 1 to update, 0 unchanged, 0 with errors. Nothing was changed."));
    const apply = page.getByRole("button", { name: "Apply" });
    await expect.poll(() => apply.isDisabled()).toBe(false);
    await apply.click();
    await seen(page.getByText("Imported: 2 created, 1 updated."));
    await shot(page, "81-csv-import-applied");
    const nodes = await hardware();
    expect(nodes.map((h) => [h.name, h.role, h.site_id, h.tags])).toEqual([
      ["imp-new-1", "web", site, ["a", "b"]],
      ["imp-new-2", "web", null, []],
      ["imp-old", "storage", null, []],
    ]);
    await page.getByRole("link", { name: "Back to Hardware" }).click();
    await seen(page.getByRole("link", { name: "imp-new-2" }));
  });
});
