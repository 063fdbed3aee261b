// A sink's message templates in a real browser (docs/notifications.md), against the product started as the
// README says: the sink form's Preview renders the title and body templates against the sample alert; a
// template naming an unknown field shows the API's 422 on its field, from the preview and from a save
// (nothing stored); fixed, the sink is created with its templates, which its row in the list mentions.
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.252";
const ADMIN = { email: "templates@example.com", password: "a long passphrase for templates" };

describe.skipIf(!hasChromium)("message templates in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);

  it("previews a template, shows a bad one's 422 on its field, and saves", async () => {
    const { page } = s;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Notifications" }).click();
    await seen(page.getByRole("heading", { name: "New sink" }));
    await page.getByLabel("Name").fill("templated ntfy");
    await page.getByLabel("Provider").selectOption("ntfy");
    await page.getByLabel("topic", { exact: true }).fill("ops");
    const title = page.getByLabel("title template (optional)");
    const body = page.getByLabel("body template (optional)");
    await title.fill("{{monitor.name}} is {{status}}");
    await body.fill("{{message}}{{#affected}}\n- {{title}}{{/affected}}");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = await seen(page.getByRole("status", { name: "Preview" }));
    await seen(preview.getByText("core-switch is firing"));
    await seen(preview.getByText(/100% packet loss\s+- web-1 down\s+- "db-1" down/));
    await shot(page, "60-sink-template-preview");

    // A name the catalogue lacks, inside the section: the 422 lands on the body template's field.
    await body.fill("{{message}}{{#affected}}\n- {{hostname}}{{/affected}}");
    await page.getByRole("button", { name: "Preview" }).click();
    const error = await seen(page.locator("#sink-body_template-error"));
    expect(await error.textContent()).toContain("unknown field: hostname");
    expect(await body.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("status", { name: "Preview" }).count()).toBe(0);
    await page.getByRole("button", { name: "Create sink" }).click();
    await seen(page.locator("#sink-body_template-error").getByText("unknown field: hostname"));
    await shot(page, "61-sink-template-422");
    expect((await s.api("GET", "/notifications/sinks")).total).toBe(0);

    await body.fill("{{message}}{{#affected}}\n- {{title}}{{/affected}}");
    await page.getByRole("button", { name: "Create sink" }).click();
    await seen(page.getByRole("cell", { name: "templated ntfy" }));
    // The list says the sink has templates rather than printing them in its row.
    await seen(page.locator("tr[data-sink]").getByText(/title templated/));
    const sinks = (await s.api("GET", "/notifications/sinks")) as { items: Array<{ provider_config: Record<string, unknown> }> };
    expect(sinks.items[0]!.provider_config).toMatchObject({
      topic: "ops",
      title_template: "{{monitor.name}} is {{status}}",
      body_template: "{{message}}{{#affected}}\n- {{title}}{{/affected}}",
    });
  });
});
