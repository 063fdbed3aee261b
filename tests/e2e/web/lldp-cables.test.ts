// LLDP neighbours proposed as cables in a real browser (docs/ports-and-cables.md): a product on its own
// database holds an LLDP job whose neighbours are written as the sidecar would (no SNMP agent here), one
// ready, one whose far interface holds another cable (taken), one naming no interface (unmatched). The
// node's page lists them with their state and reason in words; "Create cable" on the ready one makes the
// cable (seen in the Interfaces list and through the API), and the proposal then reads Cabled. "Read LLDP
// neighbours" on a node without an address shows the API's refusal.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { killAll, tempDataDir } from "../helpers.ts";
import { hasChromium, seen, shot } from "./browser.ts";
import { type SignedIn, signedIn } from "./signed-in.ts";

const HOST = "127.0.0.181";
const ADMIN = { email: "lldp-admin@example.com", password: "a long passphrase for lldp" };

describe.skipIf(!hasChromium)("LLDP cable proposals in a real browser", () => {
  const data = tempDataDir();
  let db: TestDatabase;
  let s: SignedIn;
  beforeAll(async () => {
    db = await createTestDatabase();
    s = await signedIn(HOST, data.dir, ADMIN, { DATABASE_URL: db.url });
  }, 300_000);
  afterAll(async () => {
    await s?.browser.close();
    await killAll();
    data.remove();
    await db?.drop();
  });

  it("lists a node's LLDP neighbours as proposals with their states and creates the cable of a ready one", async () => {
    const { page, api } = s;
    const node = async (name: string) => (await api("POST", "/hardware", { name })).id as number;
    const iface = async (hardware_id: number, name: string) => (await api("POST", "/interfaces", { hardware_id, name })).id as number;
    const core = await node("lldp-core");
    const dist = await node("lldp-dist");
    const other = await node("lldp-other");
    await iface(core, "Gi1/0/1");
    await iface(core, "Gi1/0/2");
    const distGi01 = await iface(dist, "Gi0/1");
    const distGi02 = await iface(dist, "Gi0/2");
    const otherEth = await iface(other, "eth0");
    const held = (await api("POST", "/cables", { a_kind: "interface", a_id: distGi02, b_kind: "interface", b_id: otherEth })).id as number;

    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    let job: number;
    try {
      job = (await sql`insert into scan_jobs (scan_types, status) values ('["lldp"]', 'completed') returning id`)[0]!.id as number;
      for (const [index, local, port] of [
        [1, "Gi1/0/1", "Gi0/1"],
        [2, "Gi1/0/2", "Gi0/2"],
        [3, "Gi1/0/9", "Gi0/3"],
      ] as const)
        await sql`insert into lldp_neighbors (scan_job_id, source_hardware_id, neighbor_index, local_port_desc, remote_hardware_id, remote_port_desc, remote_sys_name)
                  values (${job}, ${core}, ${index}, ${local}, ${dist}, ${port}, 'lldp-dist')`;
    } finally {
      await sql.end();
    }

    await page.goto(`${s.product.url}/inventory/hardware/${core}?lldp_job=${job}`);
    const lldp = page.getByRole("region", { name: "LLDP neighbours" });
    const proposals = lldp.getByRole("table", { name: "Cable proposals" });
    await seen(proposals);
    const row = (local: string) => proposals.getByRole("row").filter({ has: page.getByRole("cell", { name: local, exact: true }) });
    expect(await row("Gi1/0/1").innerText()).toContain("lldp-dist:Gi0/1");
    await seen(row("Gi1/0/1").getByText("Ready"));
    await seen(row("Gi1/0/2").getByText("Taken"));
    expect(await row("Gi1/0/2").innerText()).toContain(`Cable ${held} already holds lldp-dist:Gi0/2.`);
    await seen(row("Gi1/0/9").getByText("Unmatched"));
    expect(await row("Gi1/0/9").innerText()).toContain('No interface named "Gi1/0/9" on the reporting node.');
    // Only the ready one offers a cable.
    expect(await proposals.getByRole("button", { name: /^Create cable/ }).count()).toBe(1);
    await shot(page, "lldp-cable-proposals");

    await proposals.getByRole("button", { name: "Create cable Gi1/0/1 to lldp-dist:Gi0/1" }).click();
    await seen(row("Gi1/0/1").getByText("Cabled"));
    const interfaces = page.getByRole("region", { name: "Interfaces" }).last();
    await seen(interfaces.getByRole("cell", { name: "lldp-dist:Gi0/1" }));

    const cables = (await api("GET", `/cables?hardware_id=${core}`)).items as { id: number; a: { id: number }; b: { id: number } }[];
    expect(cables.some((c) => [c.a.id, c.b.id].includes(distGi01))).toBe(true);
    const after = (await api("GET", `/discovery/lldp-jobs/${job}/cable-proposals`)).proposals as {
      local_port_desc: string;
      state: string;
    }[];
    expect(after.map((p) => [p.local_port_desc, p.state])).toEqual([
      ["Gi1/0/1", "cabled"],
      ["Gi1/0/2", "taken"],
      ["Gi1/0/9", "unmatched"],
    ]);

    // The node has no address: the enrichment is refused with the API's reason.
    await lldp.getByRole("button", { name: "Read LLDP neighbours" }).click();
    await seen(lldp.getByText("No valid IP addresses for selected nodes"));
  });
});
