// Configuration as code seen from the console (docs/cli.md): a record a lab file applied says on its
// page, to an administrator, that the next apply of that file overwrites changes made there; a record
// made in the console says nothing.
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const ADMIN = { email: "labmanaged@example.com", password: "a long passphrase for lab files" };

describe.skipIf(!hasChromium)("a lab file's records in the console", () => {
  const s = signedInSuite("127.0.43.10", ADMIN);

  it("shows who manages a record, and nothing on one made in the console", async () => {
    const { page } = s;
    const applied = (await s.api("POST", "/config/apply", {
      owner: "homelab",
      objects: [{ kind: "hardware", key: "pve-1", fields: { name: "lab-pve-1" } }],
    })) as { changes: { id: number }[] };
    const managed = applied.changes[0]!.id;
    const own = ((await s.api("POST", "/hardware", { name: "console-box" })) as { id: number }).id;
    await page.goto(`${s.product.url}/inventory/hardware/${managed}`);
    const note = await seen(page.getByRole("status").filter({ hasText: "A lab file manages this record" }));
    expect(await note.textContent()).toContain("owner “homelab”, key “pve-1”");
    await shot(page, "lab-managed-record");
    await page.goto(`${s.product.url}/inventory/hardware/${own}`);
    await seen(page.getByRole("heading", { name: "console-box" }));
    expect(await page.getByText("A lab file manages this record").count()).toBe(0);
  });
});
