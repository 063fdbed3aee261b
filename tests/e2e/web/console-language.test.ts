// The console's language in a real browser (docs/adr/0479-console-i18n.md): a user without a language
// of their own sees the browser's (German here); the picker in the top bar switches to French at once,
// without a reload, and the choice is stored on the user, so a reload keeps it. Another user, without
// a language and with an English browser, still sees English. Status values the API sends are translated
// too (web/src/components/status.tsx), and so is the text shared/domain writes: a notification provider
// field's hint and an alert-rule metric's description (web/src/i18n/domain-text.ts).
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.171";
const ADMIN = { email: "language-admin@example.com", password: "a long passphrase for languages" };
const GERMAN = { email: "greta@example.com", password: "greta's long passphrase here" };
const SPANISH = { email: "ana@example.com", password: "ana's long passphrase here" };

describe.skipIf(!hasChromium)("the console's language in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);
  let context: BrowserContext;
  let page: Page;
  let userId = 0;

  it("a user without a language sees the shell in the browser's language (German)", async () => {
    const user = await s.api("POST", "/admin/users", { ...GERMAN, role: "editor", must_change_password: false });
    expect(user.locale).toBeNull();
    userId = user.id as number;
    context = await s.browser.newContext({ locale: "de-DE", viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(s.product.url);
    // The sign-in screen already speaks the browser's language.
    await page.getByLabel("E-Mail").fill(GERMAN.email);
    await page.getByLabel("Passwort").fill(GERMAN.password);
    await page.getByRole("button", { name: "Anmelden" }).click();
    const nav = page.getByRole("navigation", { name: "Hauptnavigation" });
    await seen(nav.getByRole("button", { name: "Überwachung" }));
    for (const name of ["Inventar", "Erkennung", "Einstellungen"]) expect(await nav.getByRole("button", { name }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Abmelden" }).isVisible()).toBe(true);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await page.getByLabel("Sprache").inputValue()).toBe("");
    await shot(page, "console-language-de");
    // A status the API sends as "down" reads in German, with its shape and colour unchanged.
    await s.api("POST", "/hardware", { name: "greta-node", status: "down" });
    await page.goto(`${s.product.url}/inventory/hardware`);
    const badge = await seen(page.locator("tbody tr").filter({ hasText: "greta-node" }).locator(".status"));
    expect(await badge.textContent()).toBe("ausgefallen");
    expect(await badge.getAttribute("class")).toContain("status-bad");
  });

  it("picking French switches at once, is stored on the user and survives a reload", async () => {
    await page.getByLabel("Sprache").selectOption("fr");
    const nav = page.getByRole("navigation", { name: "Navigation principale" });
    await seen(nav.getByRole("button", { name: "Supervision" }));
    expect(await page.getByRole("button", { name: "Se déconnecter" }).isVisible()).toBe(true);
    expect(await page.locator("html").getAttribute("lang")).toBe("fr");
    // Stored on the user (the save runs after the switch: wait for it, bounded by poll's timeout).
    await expect.poll(async () => (await s.api("GET", `/users/${userId}`)).locale).toBe("fr");
    await page.reload();
    await seen(page.getByRole("navigation", { name: "Navigation principale" }).getByRole("button", { name: "Inventaire" }));
    expect(await page.getByLabel("Langue").inputValue()).toBe("fr");
    await shot(page, "console-language-fr");
    await context.close();
  });

  it("a provider field's hint and a metric's description are in the user's language (Spanish)", async () => {
    await s.api("POST", "/admin/users", { ...SPANISH, role: "admin", must_change_password: false });
    const spanish = await s.browser.newContext({ locale: "es-ES", viewport: { width: 1280, height: 900 } });
    const es = await spanish.newPage();
    await es.goto(`${s.product.url}/settings/notifications`);
    await es.getByLabel("Correo electrónico").fill(SPANISH.email);
    await es.getByLabel("Contraseña").fill(SPANISH.password);
    await es.getByRole("button", { name: "Iniciar sesión" }).click();
    await (await seen(es.locator("#sink-type"))).selectOption("pagerduty");
    // The label stays the API's key name; the hint under it is Spanish, a template's examples as written.
    expect(await (await seen(es.locator("#sink-routing_key-hint"))).textContent()).toBe(
      "La Integration Key de una integración Events API v2 del servicio de PagerDuty (32 caracteres).",
    );
    expect(await es.locator("#sink-title_template-hint").textContent()).toContain("{{monitor.name}} está {{status}}");
    await es.goto(`${s.product.url}/alert-rules/new`);
    await (await seen(es.locator("#rule-metric"))).selectOption("host.mem_pct");
    expect(await (await seen(es.locator("#rule-metric-hint"))).textContent()).toBe("Uso de memoria informado por el agente");
    await es.locator("#rule-metric").selectOption("host.fs_pct");
    await es.locator("#rule-mount").fill("/var");
    await seen(es.locator("#rule-metric-hint").getByText("Ocupación del sistema de archivos montado en /var informada por el agente"));
    await shot(es, "console-language-es-rule-form");
    await spanish.close();
  });

  it("another user without a language and an English browser sees English", async () => {
    const { page: admin } = s;
    await admin.reload();
    const nav = admin.getByRole("navigation", { name: "Main" });
    await seen(nav.getByRole("button", { name: "Monitoring" }));
    expect(await nav.getByRole("button", { name: "Inventory" }).isVisible()).toBe(true);
    expect(await admin.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
    expect(await admin.locator("html").getAttribute("lang")).toBe("en");
    expect(await admin.getByLabel("Language").inputValue()).toBe("");
  });
});
