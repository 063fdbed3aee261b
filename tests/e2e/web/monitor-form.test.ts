// The monitor form and delete in a real browser, against the product started as the README says, with a
// fake HTTP and TCP target in the test:
// - "New monitor" on the overview; an http monitor with a bad URL shows the API's 422 on the URL field, then
//   with the target's URL it is created, its page opens and shows it up after "Check now";
// - its badges made public with the form's checkbox: its page shows them, and they load without a credential;
// - a tcp monitor watching a hardware node picked with the search picker (its address the host); dns and icmp monitors with
//   only their own fields; a postgres monitor with its fields, the API's 422 on its port, its password sealed;
// - its interval edited; an edit while someone else changed it shows the 412 with "Load their version";
// - an http monitor's edit keeps its secrets (sent back masked) and the config keys the form has no field
//   for, and shows a bad header name and interval on their fields;
// - deleted through the confirmation dialog naming it, and gone from the overview;
// - a viewer sees no New monitor, Edit or Delete, and the form refuses them.
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.240";
const TARGET_HOST = "127.0.0.241";
const ADMIN = { email: "monitor-form@example.com", password: "a long passphrase for the monitor form" };
const VIEWER = { email: "monitor-form-viewer@example.com", password: "viewer passphrase for the monitor form" };

describe.skipIf(!hasChromium)("the monitor form and delete in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const http = createHttpServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("all good"));
  const tcp: Server = createServer((socket) => socket.destroy());
  let httpPort = 0;
  let tcpPort = 0;
  let hardwareId = 0;
  let httpMonitorId = 0;
  let tcpMonitorId = 0;

  const listen = async (server: Server | ReturnType<typeof createHttpServer>) => {
    await new Promise<void>((r) => server.listen(0, TARGET_HOST, r));
    return (server.address() as { port: number }).port;
  };

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
    httpPort = await listen(http);
    tcpPort = await listen(tcp);
    hardwareId = (await s.api("POST", "/hardware", { name: "db-box-1", role: "server", ip_address: TARGET_HOST })).id as number;
  }, 300_000);

  afterAll(async () => {
    await new Promise<void>((r) => http.close(() => r()));
    await new Promise<void>((r) => tcp.close(() => r()));
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("creates an http monitor: the API's 422 on the URL field first, then up after Check now", async () => {
    const { page } = s;
    await page.getByRole("link", { name: "New monitor" }).click();
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("shop http");
    expect(await page.getByLabel("Check type").inputValue()).toBe("http");
    const url = page.getByLabel("URL", { exact: true });
    await url.fill("ftp://files.example.com/");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.locator("#config-url-error").getByText("Must be an http(s) URL."));
    expect(await url.getAttribute("aria-invalid")).toBe("true");
    expect(await url.getAttribute("aria-describedby")).toContain("config-url-error");
    await shot(page, "50-monitor-form-url-refused");

    await url.fill(`http://${TARGET_HOST}:${httpPort}/health`);
    await page.getByLabel("Expected status codes").fill("200");
    await page.getByLabel("Keyword", { exact: true }).fill("all good");
    await page.getByLabel("Check every (seconds)").fill("3600");
    await page.getByRole("button", { name: "Create monitor" }).click();
    const heading = page.getByRole("heading", { name: /shop http/, level: 1 });
    await seen(heading);
    httpMonitorId = Number(/\/monitors\/(\d+)$/.exec(page.url())![1]);
    const saved = await s.api("GET", `/monitors/${httpMonitorId}`);
    // The host came from the URL; the config holds only what was given.
    expect(saved).toMatchObject({ check_type: "http", host: TARGET_HOST, interval_secs: 3600, target_type: null });
    expect(saved.config).toEqual({ url: `http://${TARGET_HOST}:${httpPort}/health`, accepted_statuses: ["200"], keyword: "all good" });
    await page.getByRole("button", { name: "Check now" }).click();
    await seen(heading.locator(".status-good"), 30_000);
    await shot(page, "51-monitor-created-up");
  }, 120_000);

  it("makes the http monitor's badges public: the page shows them, and they load without a credential", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/${httpMonitorId}`);
    await seen(page.getByRole("heading", { name: /shop http/, level: 1 }));
    expect(await page.getByRole("heading", { name: "Public badges" }).count()).toBe(0);
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    const box = page.getByLabel(/Public badges/);
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByRole("heading", { name: "Public badges" }));
    expect((await s.api("GET", `/monitors/${httpMonitorId}`)).badge_public).toBe(true);
    const img = page.getByTestId("badge-status").getByRole("img");
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    await seen(page.getByTestId("badge-cert-expiry"));
    const url = `${s.product.url}/api/v1/badges/monitors/${httpMonitorId}/status.svg`;
    await seen(page.getByTestId("badge-status").getByText(`![status](${url})`));
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.text()).toContain("<title>status: up</title>");
    await shot(page, "51b-monitor-badges");
  }, 120_000);

  it("creates a tcp monitor watching a hardware node picked with the search picker", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/new`);
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("db tcp");
    await page.getByLabel("Check type").selectOption("tcp");
    await page.getByLabel("Watches").selectOption("hardware");
    const picker = page.getByRole("combobox", { name: "Hardware node" });
    await picker.fill("db-box");
    await (await seen(page.getByRole("option", { name: /db-box-1/ }))).click();
    // The empty host takes the node's address.
    await expect.poll(() => page.getByLabel("Host", { exact: true }).inputValue(), { timeout: 10_000 }).toBe(TARGET_HOST);
    await page.getByLabel("Port").fill(String(tcpPort));
    await page.getByLabel("Check every (seconds)").fill("3600");
    await shot(page, "52-monitor-form-tcp");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.getByRole("heading", { name: /db tcp/, level: 1 }));
    await seen(page.getByRole("link", { name: "hardware node db-box-1" }));
    tcpMonitorId = Number(/\/monitors\/(\d+)$/.exec(page.url())![1]);
    expect(await s.api("GET", `/monitors/${tcpMonitorId}`)).toMatchObject({
      check_type: "tcp",
      host: TARGET_HOST,
      config: { port: tcpPort },
      target_type: "hardware",
      target_id: hardwareId,
    });
    await page.getByRole("button", { name: "Check now" }).click();
    await seen(page.getByRole("heading", { name: /db tcp/, level: 1 }).locator(".status-good"), 30_000);
  }, 120_000);

  it("creates dns and icmp monitors with their own fields only", async () => {
    const { page } = s;
    const create = async (name: string, type: string, fill: () => Promise<void>) => {
      await page.goto(`${s.product.url}/monitors/new`);
      await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByLabel("Check type").selectOption(type);
      expect(await page.getByLabel("URL", { exact: true }).count()).toBe(0);
      await page.getByLabel("Host", { exact: true }).fill(type === "dns" ? "example.internal" : TARGET_HOST);
      await page.getByLabel("Check every (seconds)").fill("3600");
      await fill();
      await page.getByRole("button", { name: "Create monitor" }).click();
      await seen(page.getByRole("heading", { name: new RegExp(name), level: 1 }));
      return s.api("GET", `/monitors/${/\/monitors\/(\d+)$/.exec(page.url())![1]}`);
    };
    const dns = await create("mail dns", "dns", async () => {
      await page.getByLabel("Record type").selectOption("MX");
      await page.getByLabel("Resolver").fill(TARGET_HOST);
      await page.getByLabel("Expected values").fill("mx1.example.internal, mx2.example.internal");
      await shot(page, "57-monitor-form-dns");
    });
    expect(dns).toMatchObject({ check_type: "dns", host: "example.internal" });
    expect(dns.config).toEqual({
      record_type: "MX",
      resolver: TARGET_HOST,
      expected_values: ["mx1.example.internal", "mx2.example.internal"],
    });
    const icmp = await create("box ping", "icmp", async () => {
      expect(await page.getByLabel("Port").count()).toBe(0);
      await page.getByLabel("Timeout (seconds)").fill("2.5");
    });
    expect(icmp).toMatchObject({ check_type: "icmp", host: TARGET_HOST, config: { timeout: 2.5 } });
    for (const m of [dns, icmp]) await s.api("DELETE", `/monitors/${m.id}`);
  }, 120_000);

  it("creates a postgres monitor with its own fields only: the API's 422 on the port first, the password sealed", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/new`);
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("app postgres");
    await page.getByLabel("Check type").selectOption("postgres");
    expect(await page.getByLabel("URL", { exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Key", { exact: true }).count()).toBe(0);
    await page.getByLabel("Host", { exact: true }).fill(TARGET_HOST);
    await page.getByLabel("Check every (seconds)").fill("3600");
    const port = page.getByLabel("Port");
    await port.fill("70000");
    await page.getByLabel("Database", { exact: true }).fill("app");
    await page.getByLabel("User name").fill("monitor");
    await page.getByLabel("Password", { exact: true }).fill("pg form secret");
    await page.getByLabel("Query").fill("select 1");
    await page.getByLabel("Expected value").fill("1");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.locator("#config-port-error").getByText("Must be between 1 and 65535."));
    expect(await port.getAttribute("aria-invalid")).toBe("true");
    await port.fill("5432");
    await shot(page, "58-monitor-form-postgres");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.getByRole("heading", { name: /app postgres/, level: 1 }));
    const pg = await s.api("GET", `/monitors/${/\/monitors\/(\d+)$/.exec(page.url())![1]}`);
    expect(pg).toMatchObject({ check_type: "postgres", host: TARGET_HOST });
    expect(pg.config).toEqual({
      port: 5432,
      database: "app",
      username: "monitor",
      password: "********",
      password_set: true,
      query: "select 1",
      expected_value: "1",
    });
    await s.api("DELETE", `/monitors/${pg.id}`);
  }, 120_000);

  it("edits the interval, and shows a concurrent change as a 412 with their version to load", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/${tcpMonitorId}`);
    await seen(page.getByRole("heading", { name: /db tcp/, level: 1 }));
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await seen(page.getByRole("heading", { name: "Edit db tcp", level: 1 }));
    expect(await page.getByLabel("Check type").isDisabled()).toBe(true);
    // The picker names the current node once it has read it.
    await expect.poll(() => page.getByRole("combobox", { name: "Hardware node" }).inputValue(), { timeout: 10_000 }).toBe("db-box-1");
    const interval = page.getByLabel("Check every (seconds)");
    expect(await interval.inputValue()).toBe("3600");
    await interval.fill("120");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("every 120 s"));
    expect(await s.api("GET", `/monitors/${tcpMonitorId}`)).toMatchObject({
      interval_secs: 120,
      config: { port: tcpPort },
      target_id: hardwareId,
    });

    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await seen(page.getByRole("heading", { name: "Edit db tcp", level: 1 }));
    // Someone else renames it after the form was loaded.
    await s.api("PATCH", `/monitors/${tcpMonitorId}`, { name: "db tcp (renamed)" });
    await page.getByLabel("Check every (seconds)").fill("300");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("Someone else changed this record since you opened it."));
    await shot(page, "53-monitor-form-conflict");
    expect(await s.api("GET", `/monitors/${tcpMonitorId}`)).toMatchObject({ name: "db tcp (renamed)", interval_secs: 120 });
    await page.getByRole("button", { name: "Load their version" }).click();
    await expect.poll(() => page.getByLabel("Name", { exact: true }).inputValue(), { timeout: 10_000 }).toBe("db tcp (renamed)");
    await page.getByLabel("Check every (seconds)").fill("300");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("every 300 s"));
  }, 120_000);

  it("keeps an http monitor's secrets and the config keys it has no field for through an edit; a bad header and interval are refused on their fields", async () => {
    const { page } = s;
    const config = {
      url: `http://${TARGET_HOST}:${httpPort}/status`,
      auth_type: "basic",
      username: "probe",
      password: "s3cret pass",
      headers: { Authorization: "Token abc", "X-Trace": "1" },
      json_path: "$.ok",
      expected_value: "true",
    };
    const id = (await s.api("POST", "/monitors", { name: "api json", check_type: "http", host: TARGET_HOST, config, interval_secs: 3600 }))
      .id as number;
    await page.goto(`${s.product.url}/monitors/${id}/edit`);
    await seen(page.getByRole("heading", { name: "Edit api json", level: 1 }));
    expect(await page.getByLabel("User name").inputValue()).toBe("probe");
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("********");
    const headers = page.getByLabel("Request headers");
    // One line per header, the credential masked (the stored jsonb has its own key order).
    expect((await headers.inputValue()).split("\n").sort()).toEqual(["Authorization: ********", "X-Trace: 1"]);

    // The API checks the body's fields first and the config after them: one refusal at a time here.
    await headers.fill("Authorization: ********\nBad Header: 1");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.locator("#config-headers-error").getByText("Must be an HTTP header name."));
    expect(await headers.getAttribute("aria-invalid")).toBe("true");
    await shot(page, "56-monitor-form-header-refused");
    await headers.fill("Authorization: ********\nX-Trace: 2");
    await page.getByLabel("Check every (seconds)").fill("5");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.locator("#monitor-interval-error").getByText("Must be at least 10."));
    expect(await page.locator("#config-headers-error").count()).toBe(0);

    await page.getByLabel("Check every (seconds)").fill("600");
    await page.getByRole("button", { name: "Save changes" }).click();
    await seen(page.getByText("every 600 s"));
    const saved = await s.api("GET", `/monitors/${id}`);
    expect(saved.config).toMatchObject({
      url: config.url,
      auth_type: "basic",
      username: "probe",
      password: "********",
      password_set: true,
      headers: { Authorization: "********", "X-Trace": "2" },
      json_path: "$.ok",
      expected_value: "true",
    });
    await s.api("DELETE", `/monitors/${id}`);
  }, 120_000);

  it("deletes a monitor after the dialog naming it, and it is gone from the overview", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/${tcpMonitorId}`);
    await seen(page.getByRole("heading", { name: /db tcp \(renamed\)/, level: 1 }));
    await page.getByRole("button", { name: "Delete…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete db tcp (renamed)?" });
    await seen(dialog);
    await shot(page, "54-monitor-delete-dialog");
    // Cancel keeps it.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete monitor" }).click();
    await seen(page.getByRole("heading", { name: "Monitoring overview" }));
    await seen(page.locator(`tr[data-monitor="${httpMonitorId}"]`));
    expect(await page.locator(`tr[data-monitor="${tcpMonitorId}"]`).count()).toBe(0);
    await expect(s.api("GET", `/monitors/${tcpMonitorId}`)).rejects.toThrow(/-> 404/);
  }, 60_000);

  it("shows a viewer no New monitor, Edit or Delete, and the form refuses them", async () => {
    await s.api("POST", "/admin/users", { ...VIEWER, role: "viewer", must_change_password: false });
    const context = await s.browser.newContext({ viewport: { width: 1000, height: 900 } });
    const p = await context.newPage();
    try {
      await p.goto(s.product.url);
      await p.getByLabel("Email").fill(VIEWER.email);
      await p.getByLabel("Password").fill(VIEWER.password);
      await p.getByRole("button", { name: "Sign in" }).click();
      await seen(p.getByRole("heading", { name: "Monitoring overview" }));
      await seen(p.locator(`tr[data-monitor="${httpMonitorId}"]`));
      expect(await p.getByRole("link", { name: "New monitor" }).count()).toBe(0);
      await p.getByRole("link", { name: "shop http" }).click();
      await seen(p.getByRole("heading", { name: /shop http/, level: 1 }));
      expect(await p.getByRole("link", { name: "Edit", exact: true }).count()).toBe(0);
      expect(await p.getByRole("button", { name: "Delete…" }).count()).toBe(0);
      await p.goto(`${s.product.url}/monitors/${httpMonitorId}/edit`);
      await seen(p.getByText("Your role cannot create or change monitors"));
      expect(await p.getByRole("button", { name: "Save changes" }).count()).toBe(0);
      await shot(p, "55-monitor-form-viewer");
    } finally {
      await context.close();
    }
  }, 60_000);
});
