// Group monitors in a real browser (docs/adr/0440), against the product started as the README says, with a
// fake TCP target in the test:
// - a group made with the form: its own fields (mode, min_up), no host and no agent fields; its page says it
//   has no members yet;
// - a tcp monitor made with the form joins it through the Group select, and its page links the group;
// - a second member made through the API; the group's page lists both with their states, and the group
//   goes up once both members are up (at least 2 of 2), its last message naming them.
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.244";
const TARGET_HOST = "127.0.0.245";
const ADMIN = { email: "group-monitors@example.com", password: "a long passphrase for group monitors" };

describe.skipIf(!hasChromium)("group monitors in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const tcp: Server = createServer((socket) => socket.destroy());
  let tcpPort = 0;
  let groupId = 0;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
    await new Promise<void>((r) => tcp.listen(0, TARGET_HOST, r));
    tcpPort = (tcp.address() as { port: number }).port;
  }, 300_000);

  afterAll(async () => {
    await new Promise<void>((r) => tcp.close(() => r()));
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("makes a group with its own fields and no host", async () => {
    const { page } = s;
    await page.getByRole("link", { name: "New monitor" }).click();
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("shop group");
    await page.getByLabel("Check type").selectOption("group");
    expect(await page.getByLabel("Host", { exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Run through an agent").count()).toBe(0);
    await page.getByLabel("Up when").selectOption("at_least");
    await page.getByLabel("At least this many members up").fill("2");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.getByRole("heading", { name: /shop group/, level: 1 }));
    groupId = Number(/\/monitors\/(\d+)$/.exec(page.url())![1]);
    await seen(page.getByText("No monitor belongs to this group yet"));
    expect(await s.api("GET", `/monitors/${groupId}`)).toMatchObject({
      check_type: "group",
      host: "",
      config: { mode: "at_least", min_up: 2 },
      members: { total: 0 },
    });
  });

  it("adds members through the Group select and the API; the group lists them and goes up", async () => {
    const { page } = s;
    await page.goto(`${s.product.url}/monitors/new`);
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("shop tcp 1");
    await page.getByLabel("Check type").selectOption("tcp");
    await page.getByLabel("Host", { exact: true }).fill(TARGET_HOST);
    await page.getByLabel("Port", { exact: true }).fill(String(tcpPort));
    // The select's options are in the page once the groups are read (an option of a closed select is never visible).
    await page.locator("#monitor-group option", { hasText: "shop group" }).waitFor({ state: "attached" });
    await page.getByLabel("Group", { exact: true }).selectOption({ label: "shop group" });
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.getByRole("heading", { name: /shop tcp 1/, level: 1 }));
    await seen(page.getByRole("link", { name: "shop group" }));
    const member = Number(/\/monitors\/(\d+)$/.exec(page.url())![1]);
    expect((await s.api("GET", `/monitors/${member}`)).group_id).toBe(groupId);

    await s.api("POST", "/monitors", {
      name: "shop tcp 2",
      check_type: "tcp",
      host: TARGET_HOST,
      config: { port: tcpPort },
      group_id: groupId,
    });
    await page.getByRole("link", { name: "shop group" }).click();
    const members = page.getByRole("table", { name: "Members of this group and their states" });
    await seen(members.getByRole("link", { name: "shop tcp 1" }));
    await seen(members.getByRole("link", { name: "shop tcp 2" }));
    // Both members are checked at once (due on create); at least 2 of 2 up makes the group up.
    await seen(page.getByRole("heading", { name: /shop group/, level: 1 }).locator(".status-good"), 30_000);
    await seen(members.locator(".status-good").nth(1));
    await seen(page.locator("dd").getByText("up: 2 of 2 up, need 2: shop tcp 1 up, shop tcp 2 up"));
    await shot(page, "70-group-monitor-members");
  });
});
