// The cable trace in a real browser (docs/ports-and-cables.md): a server's interface is added and cabled
// to patch panel A from the hardware page's forms; panel A's rear port is trunked to panel B's, whose
// front port is patched to the switch (through the API). The trace view shows the whole path as boxes,
// server:eth0 -> panel A front and rear -> panel B rear and front -> switch:ge-0/0/1.
import { describe, expect, it } from "vitest";
import { hasChromium, seen, shot } from "./browser.ts";
import { signedInSuite } from "./signed-in.ts";

const HOST = "127.0.0.180";
const ADMIN = { email: "cabling-admin@example.com", password: "a long passphrase for cables" };

describe.skipIf(!hasChromium)("the cable trace in a real browser", () => {
  const s = signedInSuite(HOST, ADMIN);

  it("adds an interface, cables it to a patch panel from the node's page, and traces it through two panels", async () => {
    const { page, api } = s;
    const node = async (name: string) => (await api("POST", "/hardware", { name })).id as number;
    const server = await node("trace-server");
    const sw = await node("trace-switch");
    const panelA = await node("panel-a");
    const panelB = await node("panel-b");
    const rearA = (await api("POST", "/rear-ports", { hardware_id: panelA, name: "R1" })).id as number;
    await api("POST", "/front-ports", { hardware_id: panelA, name: "F1", rear_port_id: rearA });
    const rearB = (await api("POST", "/rear-ports", { hardware_id: panelB, name: "R1" })).id as number;
    const frontB = (await api("POST", "/front-ports", { hardware_id: panelB, name: "F1", rear_port_id: rearB })).id as number;
    const swPort = (await api("POST", "/interfaces", { hardware_id: sw, name: "ge-0/0/1" })).id as number;
    await api("POST", "/cables", { a_kind: "rear_port", a_id: rearA, b_kind: "rear_port", b_id: rearB, label: "trunk-1" });
    await api("POST", "/cables", { a_kind: "front_port", a_id: frontB, b_kind: "interface", b_id: swPort, label: "patch-b" });

    await page.goto(`${s.product.url}/inventory/hardware/${server}`);
    const interfaces = page.getByRole("region", { name: "Interfaces" }).last();
    await seen(interfaces.getByText("None yet."));
    await interfaces.getByRole("button", { name: "Add interface" }).click();
    const form = page.getByRole("form", { name: "Add interface" });
    await form.getByLabel("Name").fill("eth0");
    await form.getByLabel("Speed (Mbit/s)").fill("1000");
    await form.getByRole("button", { name: "Save" }).click();
    await seen(interfaces.getByRole("cell", { name: "eth0" }));

    await interfaces.getByRole("button", { name: "Connect eth0 with a cable" }).click();
    const cable = page.getByRole("form", { name: "Cable from eth0" });
    await cable.getByLabel("Far end kind").selectOption("front_port");
    await cable.getByLabel("Far end node").selectOption(String(panelA));
    // The far node's ports load after it is picked (an option is attached, never "visible").
    await cable.getByLabel("Far end port").locator("option", { hasText: "F1" }).waitFor({ state: "attached" });
    await cable.getByLabel("Far end port").selectOption({ label: "F1" });
    await cable.getByLabel("Label", { exact: true }).fill("patch-a");
    await cable.getByRole("button", { name: "Connect" }).click();
    await seen(interfaces.getByRole("cell", { name: "panel-a:F1" }));

    await interfaces.getByRole("link", { name: "Trace the cable of eth0" }).click();
    await seen(page.getByRole("heading", { name: "Cable trace from trace-server:eth0" }));
    const path = page.getByRole("list", { name: "Cable path" });
    const ports = await path.getByTestId("trace-port").allInnerTexts();
    expect(ports.map((p) => p.split("\n").slice(0, 2).join("").replace(/\s+/g, ""))).toEqual([
      "trace-server:eth0",
      "panel-a:F1",
      "panel-a:R1",
      "panel-b:R1",
      "panel-b:F1",
      "trace-switch:ge-0/0/1",
    ]);
    const cables = await path.getByTestId("trace-cable").allInnerTexts();
    expect(cables.map((c) => c.match(/patch-a|trunk-1|patch-b/)?.[0])).toEqual(["patch-a", "trunk-1", "patch-b"]);
    expect(await page.getByTestId("trace-ended").innerText()).toBe("The path ends at the far device.");
    await shot(page, "cable-trace");
  });
});
