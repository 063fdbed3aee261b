// The passive listener on the discovery screen (issue 28), in a real browser against the product started
// as the README says, on PostgreSQL. The product's own listener is enabled on an interface that does not
// exist here (so it opens no socket and joins nothing on this machine's interfaces) and reports that error.
// What a sidecar hears is then recorded through the same verb its worker calls (recordHeard): a printer
// over mDNS and a router over SSDP at addresses of the test's choosing (nothing is sent to them). The
// screen shows the status and the events live from /discovery/stream, filters them by protocol and address,
// and the day's listener scan lists both devices with their services and vendor data for review.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListenerObservation } from "../../../shared/domain/discovery/listener.ts";
import { emptyListenerStatus } from "../../../shared/domain/discovery/listener.ts";
import { recordHeard } from "../../../shared/verbs/discovery/listener/record-heard.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import type { NodeRuntime } from "../../../runtime/node-deps.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { openTestRuntime } from "../../sidecar/monitors/support.ts";
import { killAll, tempDataDir, until } from "../helpers.ts";
import { ARTIFACTS, hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.234";
const ADMIN = { email: "listener@example.com", password: "a long passphrase for the listener" };
const MISSING_IF = "svclnone0";
const PRINTER = "10.251.9.2";
const ROUTER = "10.251.9.3";

function heard(): ListenerObservation[] {
  const at = new Date().toISOString();
  const base = { mac: null, addresses: [], location: null, usn: null, server: null, described: false, at };
  return [
    {
      ...base,
      protocol: "mdns",
      kind: "response",
      source: PRINTER,
      address: PRINTER,
      hostname: "officeprinter.local",
      addresses: [PRINTER],
      services: [{ type: "ipp", name: "Office Printer", port: 631, protocol: "tcp" }],
      vendor: "Brother",
      model: "HL-L2350DW",
      serial: null,
    },
    {
      ...base,
      protocol: "ssdp",
      kind: "notify",
      source: ROUTER,
      address: ROUTER,
      hostname: "Test Router",
      described: true,
      services: [{ type: "upnp:InternetGatewayDevice:1", name: "Test Router", port: 49152, protocol: "tcp" }],
      vendor: "Netgearish",
      model: "RX-500",
      serial: "SN-ROUTER-0042",
      location: `http://${ROUTER}:49152/rootDesc.xml`,
      usn: "uuid:aaaa-bbbb::upnp:rootdevice",
      server: "Linux UPnP/1.1 MiniUPnPd/2.3",
    },
  ];
}

describe.skipIf(!hasChromium)("web UI: the passive listener on the discovery screen", () => {
  const data = tempDataDir();
  let db: TestDatabase;
  let s: SignedIn;
  let sidecar: NodeRuntime;

  beforeAll(async () => {
    db = await createTestDatabase();
    s = await signedIn(HOST, data.dir, ADMIN, { DATABASE_URL: db.url });
    await s.api("PUT", "/settings", {
      rate_limit_profile: "relaxed",
      discovery_listener_enabled: true,
      discovery_listener_interfaces: [MISSING_IF],
    });
    sidecar = await openTestRuntime(db.url);
  }, 300_000);

  afterAll(async () => {
    if (s) writeFileSync(join(ARTIFACTS, "discovery-listener-product.log"), s.product.output());
    await s?.browser.close();
    await killAll();
    await sidecar?.close();
    await db?.drop();
    data.remove();
  });

  it("shows the listener's status, with the error of an interface that is not there", async () => {
    // The product's worker reads the setting within 5 s and writes its status within 2 s more.
    await until(
      "the product's listener status",
      async () => {
        const st = (await s.api("GET", "/discovery/listener/status")) as { errors: { message: string }[] };
        return st.errors.some((e) => e.message.includes(MISSING_IF)) ? st : undefined;
      },
      30_000,
      () => "",
      250,
    );
    const { page } = s;
    await page.goto(`${s.product.url}/discovery`);
    const panel = page.getByRole("region", { name: "Passive listener (mDNS, SSDP)" });
    const status = panel.getByRole("definition").first();
    await seen(status);
    await seen(panel.getByText("Enabled, not listening"));
    await seen(panel.getByText(MISSING_IF, { exact: true }));
    await seen(panel.getByRole("list", { name: "Listener errors" }).getByText(`interface ${MISSING_IF} not found`));
    await seen(panel.getByText("Nothing heard yet."));
    await shot(page, "35-discovery-listener-off-interface");
  }, 60_000);

  it("shows what a sidecar heard as it arrives, filtered by protocol and address", async () => {
    const { page } = s;
    const panel = page.getByRole("region", { name: "Passive listener (mDNS, SSDP)" });
    const status = {
      ...emptyListenerStatus(),
      running: true,
      interfaces: ["eth1"],
      groups: ["224.0.0.251@10.251.9.1", "239.255.255.250@10.251.9.1"],
      started_at: new Date().toISOString(),
    };
    status.packets = { mdns: 3, ssdp: 2 };
    status.accepted = { mdns: 1, ssdp: 1 };
    status.malformed = { mdns: 2, ssdp: 1 };
    status.last_packet_at = new Date().toISOString();
    const ctx = systemContext({ db: sidecar.database.db, clock: sidecar.deps.clock, random: sidecar.deps.random });
    const out = await recordHeard({ ctx, input: { owner: "sidecar-in-the-lan", observations: heard(), status } });
    expect(out.new_devices.sort()).toEqual([PRINTER, ROUTER]);
    // Live: the stream's listener_events reloads the panel.
    const events = panel.getByRole("table", { name: "Heard" });
    await seen(events.locator("tbody tr").filter({ hasText: "officeprinter.local" }).getByText("ipp 631/tcp"));
    await seen(events.locator("tbody tr").filter({ hasText: ROUTER }).getByText("Netgearish RX-500 serial SN-ROUTER-0042"));
    await seen(panel.getByText("Listening", { exact: true }));
    await seen(panel.getByText("3 received, 1 accepted, 2 malformed, 0 over the rate cap"));
    await shot(page, "36-discovery-listener-heard");

    await panel.getByLabel("Protocol").selectOption("ssdp");
    await until(
      "only SSDP rows",
      async () => ((await events.locator("tbody tr").count()) === 1 ? true : undefined),
      15_000,
      () => "",
      100,
    );
    await seen(events.locator("tbody tr").filter({ hasText: "Test Router" }));
    await panel.getByLabel("Protocol").selectOption("");
    await panel.getByLabel("Address").fill(PRINTER);
    await panel.getByRole("button", { name: "Filter" }).click();
    await until(
      "only the printer's rows",
      async () => ((await events.locator("tbody tr").count()) === 1 ? true : undefined),
      15_000,
      () => "",
      100,
    );
    await seen(events.locator("tbody tr").filter({ hasText: "Brother HL-L2350DW" }));
    await panel.getByLabel("Address").fill("not an address");
    await panel.getByRole("button", { name: "Filter" }).click();
    await seen(panel.getByText(/Must be an IP address/));
  }, 60_000);

  it("lists the heard devices as the listener scan's results, to review like a scan's", async () => {
    const { page } = s;
    const scan = await seen(page.getByRole("button", { name: /^Scan \d+ \(Passive listener \(mDNS\/SSDP\) \d{4}-\d{2}-\d{2}\)/ }));
    await scan.click();
    const printer = page.locator("tbody tr").filter({ hasText: PRINTER });
    await seen(printer.getByText("631 (ipp)"));
    await seen(printer.getByText("Brother HL-L2350DW"));
    await seen(page.locator("tbody tr").filter({ hasText: ROUTER }).getByText("Netgearish RX-500 serial SN-ROUTER-0042"));
    await printer.getByRole("button", { name: "Merge" }).click();
    await seen(printer.getByText("merged"));
    const hardware = (await s.api("GET", "/hardware")) as { items: { ip_address: string; vendor: string | null; model: string | null }[] };
    expect(hardware.items.find((h) => h.ip_address === PRINTER)).toMatchObject({ model: "HL-L2350DW" });
    await shot(page, "37-discovery-listener-merged");
  }, 60_000);
});
