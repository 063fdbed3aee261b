// Multi-vantage monitors in a real browser (docs/adr/0441), against the product started as the README says
// and the reference agent (in-process) approved with probe grants:
// - the monitor form's vantage points: the agent ticked, a quorum larger than the points shows the API's
//   422 on the quorum field, then with the quorum left to its default (a majority of 2) it is created;
// - the monitor's page lists its vantage points, the server and the agent, each showing up with its last
//   result after "Check now".
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgent, serverKeyOf, stopAgents, TEST_GRANTS, until } from "../agents/support.ts";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.216";
const TARGET_HOST = "127.0.0.217";
const ADMIN = { email: "vantage@example.com", password: "a long passphrase for vantage points" };

describe.skipIf(!hasChromium)("vantage points in a real browser", () => {
  const data = tempDataDir();
  let s: SignedIn;
  const tcp: Server = createServer((socket) => socket.end());
  let port = 0;
  let agentId = 0;

  beforeAll(async () => {
    s = await signedIn(HOST, data.dir, ADMIN);
    await s.api("PUT", "/settings", { rate_limit_profile: "relaxed" });
    await new Promise<void>((r) => tcp.listen(0, TARGET_HOST, r));
    port = (tcp.address() as { port: number }).port;
    const agent = runAgent({
      serverUrl: s.product.url,
      serverKey: await serverKeyOf(s.product),
      name: "edge-agent",
      backoff: { maxMs: 3000 },
    });
    const code = await until(
      "the pairing code",
      () => {
        const e = agent.events.find((x) => x.type === "pairing_code");
        return e?.type === "pairing_code" ? e.code : undefined;
      },
      30_000,
    );
    agentId = code.agent_id!;
    await s.api("POST", `/agents/${agentId}/approve`, { host_link_action: "create", capabilities: TEST_GRANTS });
    await until("the link", () => (agent.linkedCount() > 0 ? true : undefined), 30_000);
  }, 300_000);

  afterAll(async () => {
    stopAgents();
    await new Promise<void>((r) => tcp.close(() => r()));
    await s?.browser.close();
    await killAll();
    data.remove();
  });

  it("creates a monitor checked from the server and an agent, and lists both points with their results", async () => {
    const { page } = s;
    await page.getByRole("link", { name: "New monitor" }).click();
    await seen(page.getByRole("heading", { name: "New monitor", level: 1 }));
    await page.getByLabel("Name", { exact: true }).fill("edge tcp");
    await page.getByLabel("Check type").selectOption("tcp");
    await page.getByLabel("Host", { exact: true }).fill(TARGET_HOST);
    await page.getByLabel("Port").fill(String(port));
    await page.getByLabel("Check every (seconds)").fill("3600");
    await (await seen(page.getByRole("checkbox", { name: "edge-agent" }))).check();
    expect(await page.getByRole("checkbox", { name: "The server checks it too" }).isChecked()).toBe(true);
    const quorum = page.getByLabel(/^Quorum/);
    await quorum.fill("3");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.locator("#monitor-quorum-error").getByText(/at most 2: the monitor has 2 vantage points/));
    expect(await quorum.getAttribute("aria-invalid")).toBe("true");
    await shot(page, "60-monitor-form-quorum-refused");

    await quorum.fill("");
    await page.getByRole("button", { name: "Create monitor" }).click();
    await seen(page.getByRole("heading", { name: /edge tcp/, level: 1 }));
    const id = Number(/\/monitors\/(\d+)$/.exec(page.url())![1]);
    expect(await s.api("GET", `/monitors/${id}`)).toMatchObject({ vantage_agent_ids: [agentId], vantage_sidecar: true, quorum: 2 });
    await seen(page.getByRole("heading", { name: "Vantage points" }));
    await seen(page.locator("tr[data-vantage='sidecar']").getByText("the server"));
    await seen(page.locator(`tr[data-vantage='${agentId}']`).getByRole("link", { name: "edge-agent" }));

    // Both points answer (the agent's first run may find it not ready yet: Check now again until it does).
    await until(
      "both points up",
      async () => {
        const m = (await s.api("GET", `/monitors/${id}`)) as { status: string };
        if (m.status === "up") return true;
        await page.getByRole("button", { name: "Check now" }).click();
        await new Promise((r) => setTimeout(r, 1000));
        return undefined;
      },
      60_000,
    );
    await page.reload();
    await seen(page.getByRole("heading", { name: /edge tcp/, level: 1 }).locator(".status-good"), 30_000);
    for (const point of ["sidecar", String(agentId)]) await seen(page.locator(`tr[data-vantage='${point}'] .status-good`));
    await shot(page, "61-monitor-page-vantage-points");
  }, 180_000);
});
