// What a scrape says about a populated lab (spec 4.3): every family with HELP and TYPE, the right
// values and labels, the null-omitted rule, label escaping, a fresh registry on each scrape, and the
// same text however the per-resource pages fall.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scrapeText } from "../../../shared/metrics/scrape.ts";
import { COUNT_FAMILIES, INFO } from "../../../shared/metrics/counts.ts";
import { PER_RESOURCE_FAMILIES } from "../../../shared/metrics/per-resource.ts";
import { apiToken, familySamples, type MetricsApp, metricsApp, populateLab } from "./lab.ts";

let m: MetricsApp;
let token: string;
let text: string;

async function scrape(): Promise<string> {
  const res = await m.get("/api/v1/metrics", token);
  expect(res.status).toBe(200);
  return res.text();
}

beforeAll(async () => {
  m = await metricsApp();
  const admin = await m.bootstrap();
  token = await apiToken(m, admin, ["read:*"]);
  await populateLab(m.t.sql);
  text = await scrape();
});
afterAll(async () => m?.t.close());

describe("families", () => {
  const ALL = [INFO, ...COUNT_FAMILIES, ...PER_RESOURCE_FAMILIES].map((f) => f.name);

  it("names exactly the families of spec 4.3, in its tables' order", () => {
    expect(ALL).toEqual([
      "svc_info",
      "svc_hardware_total",
      "svc_compute_units_total",
      "svc_services_total",
      "svc_services_by_status_total",
      "svc_storage_items_total",
      "svc_storage_capacity_gb_total",
      "svc_storage_used_gb_total",
      "svc_networks_total",
      "svc_hardware_clusters_total",
      "svc_external_nodes_total",
      "svc_misc_items_total",
      "svc_docs_total",
      "svc_users_total",
      "svc_tags_total",
      "svc_service_dependencies_total",
      "svc_audit_log_entries_total",
      "svc_service_status",
      "svc_hardware_memory_configured_gb",
      "svc_compute_unit_memory_configured_mb",
      "svc_compute_unit_cpu_cores_configured",
      "svc_storage_capacity_gb",
      "svc_storage_used_gb",
    ]);
  });

  it("writes HELP then TYPE gauge once per family, before its samples, in that order", () => {
    const helps = text
      .split("\n")
      .filter((l) => l.startsWith("# HELP "))
      .map((l) => l.split(" ")[2]);
    // The spec's families, then the monitors' (issue 12 item 5), the racks' and the prefixes' (issue 33 items 1 and 4).
    expect(helps).toEqual([
      ...ALL,
      "monitor_up",
      "monitor_degraded",
      "monitor_response_ms",
      "svc_rack_units",
      "prefix_utilisation_percent",
      "svc_pdu_load_watts",
      "svc_rack_power_watts",
    ]);
    for (const name of ALL) {
      const lines = text.split("\n");
      const help = lines.indexOf(lines.find((l) => l.startsWith(`# HELP ${name} `))!);
      expect(lines[help + 1]).toBe(`# TYPE ${name} gauge`);
      const firstSample = lines.findIndex((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
      if (firstSample >= 0) expect(firstSample).toBeGreaterThan(help + 1);
    }
  });
});

describe("inventory counts", () => {
  it("writes svc_info with the version and value 1", () => {
    expect(familySamples(text, "svc_info")).toEqual(['svc_info{version="0.0.0-test"} 1']);
  });

  it.each([
    ["svc_hardware_total", ["svc_hardware_total 3"]],
    ["svc_compute_units_total", ['svc_compute_units_total{kind="vm"} 2', 'svc_compute_units_total{kind="container"} 1']],
    ["svc_services_total", ["svc_services_total 4"]],
    [
      "svc_services_by_status_total",
      [
        'svc_services_by_status_total{status="running"} 2',
        'svc_services_by_status_total{status="stopped"} 0',
        'svc_services_by_status_total{status="degraded"} 1',
        'svc_services_by_status_total{status="maintenance"} 1',
      ],
    ],
    [
      "svc_storage_items_total",
      [
        'svc_storage_items_total{kind="disk"} 1',
        'svc_storage_items_total{kind="pool"} 1',
        'svc_storage_items_total{kind="dataset"} 1',
        'svc_storage_items_total{kind="share"} 0',
      ],
    ],
    ["svc_storage_capacity_gb_total", ["svc_storage_capacity_gb_total 1500"]],
    ["svc_storage_used_gb_total", ["svc_storage_used_gb_total 420.5"]],
    ["svc_networks_total", ["svc_networks_total 2"]],
    ["svc_hardware_clusters_total", ["svc_hardware_clusters_total 1"]],
    // A null and an empty provider are one series (both are written as "").
    [
      "svc_external_nodes_total",
      ['svc_external_nodes_total{provider="",kind="dns"} 2', 'svc_external_nodes_total{provider="aws",kind="vm"} 2'],
    ],
    ["svc_misc_items_total", ["svc_misc_items_total 1"]],
    ["svc_docs_total", ["svc_docs_total 3"]],
    ["svc_tags_total", ["svc_tags_total 2"]],
    ["svc_service_dependencies_total", ["svc_service_dependencies_total 2"]],
  ])("%s", (name, lines) => {
    expect(familySamples(text, name)).toEqual(lines);
  });

  it("counts users and audit log entries as stored", async () => {
    const [users] = await m.t.sql<{ n: number }[]>`select count(*)::int as n from users`;
    expect(familySamples(text, "svc_users_total")).toEqual([`svc_users_total ${users!.n}`]);
    const audit = await m.t.sql<{ level: string; category: string; n: number }[]>`
      select level, category, count(*)::int as n from audit_log group by 1, 2 order by 1, 2`;
    expect(audit.length).toBeGreaterThan(0);
    expect(familySamples(text, "svc_audit_log_entries_total").sort()).toEqual(
      audit.map((r) => `svc_audit_log_entries_total{level="${r.level}",category="${r.category}"} ${r.n}`).sort(),
    );
  });

  it("writes every count family with its zeros on an empty inventory", async () => {
    const empty = await metricsApp();
    try {
      const admin = await empty.bootstrap();
      const body = await (await empty.get("/api/v1/metrics", admin)).text();
      expect(familySamples(body, "svc_hardware_total")).toEqual(["svc_hardware_total 0"]);
      expect(familySamples(body, "svc_compute_units_total")).toEqual([
        'svc_compute_units_total{kind="vm"} 0',
        'svc_compute_units_total{kind="container"} 0',
      ]);
      expect(familySamples(body, "svc_storage_items_total")).toHaveLength(4);
      expect(familySamples(body, "svc_storage_capacity_gb_total")).toEqual(["svc_storage_capacity_gb_total 0"]);
      expect(familySamples(body, "svc_external_nodes_total")).toEqual([]);
      for (const f of PER_RESOURCE_FAMILIES) {
        expect(body).toContain(`# TYPE ${f.name} gauge\n`);
        expect(familySamples(body, f.name)).toEqual([]);
      }
    } finally {
      await empty.t.close();
    }
  });
});

describe("per-resource series", () => {
  it("svc_service_status: one series per service and possible status, 1 for the active one", () => {
    const s = (name: string, slug: string, env: string, active: string) =>
      ["running", "stopped", "degraded", "maintenance"].map(
        (st) => `svc_service_status{name="${name}",slug="${slug}",environment="${env}",status="${st}"} ${st === active ? 1 : 0}`,
      );
    expect(familySamples(text, "svc_service_status")).toEqual([
      ...s("web", "web", "prod", "running"),
      // Escaped name; the environment comes from environment_id when the text is empty.
      ...s('we\\"ird\\\\name\\nsecond line', "weird", "prod", "maintenance"),
      ...s("db", "db", "staging", "degraded"),
      ...s("batch", "batch", "", "running"),
    ]);
  });

  it("escapes the awkward name so that no sample line breaks", () => {
    expect(text).toContain('name="we\\"ird\\\\name\\nsecond line"');
    expect(text.split("\n").filter((l) => l.startsWith("second line"))).toEqual([]);
  });

  it.each([
    [
      "svc_hardware_memory_configured_gb",
      [
        'svc_hardware_memory_configured_gb{name="node-a",role="hypervisor"} 64',
        'svc_hardware_memory_configured_gb{name="node-b",role=""} 12.5',
      ],
    ],
    [
      "svc_compute_unit_memory_configured_mb",
      [
        'svc_compute_unit_memory_configured_mb{name="vm-1",kind="vm"} 2048',
        'svc_compute_unit_memory_configured_mb{name="ct-1",kind="container"} 512',
      ],
    ],
    [
      "svc_compute_unit_cpu_cores_configured",
      [
        'svc_compute_unit_cpu_cores_configured{name="vm-1",kind="vm"} 2',
        'svc_compute_unit_cpu_cores_configured{name="vm-2",kind="vm"} 1.5',
      ],
    ],
    [
      "svc_storage_capacity_gb",
      ['svc_storage_capacity_gb{name="sda",kind="disk"} 500', 'svc_storage_capacity_gb{name="tank",kind="pool"} 1000'],
    ],
    [
      "svc_storage_used_gb",
      ['svc_storage_used_gb{name="sda",kind="disk"} 120.5', 'svc_storage_used_gb{name="tank/data",kind="dataset"} 300'],
    ],
  ])("%s: only resources whose value is set", (name, lines) => {
    expect(familySamples(text, name)).toEqual(lines);
  });

  it("never writes a null value as 0", () => {
    for (const absent of [
      'name="node-c"',
      'name="vm-2",kind="vm"} 0',
      'name="ct-1",kind="container"} 0',
      'name="tank",kind="pool"} 0',
      'name="tank/data",kind="dataset"} 0',
    ]) {
      const hits = text.split("\n").filter((l) => l.includes(absent) && !l.startsWith("svc_service_status"));
      expect(hits, absent).toEqual([]);
    }
  });
});

describe("freshness and paging", () => {
  it("svc_rack_units: used, reserved and free units per rack, labelled by rack and site only", () => {
    expect(familySamples(text, "svc_rack_units")).toEqual([
      'svc_rack_units{rack="r1",site="dc \\"1\\"",state="used"} 2',
      'svc_rack_units{rack="r1",site="dc \\"1\\"",state="reserved"} 4',
      'svc_rack_units{rack="r1",site="dc \\"1\\"",state="free"} 36',
      'svc_rack_units{rack="r2",site="dc \\"1\\"",state="used"} 0',
      'svc_rack_units{rack="r2",site="dc \\"1\\"",state="reserved"} 0',
      'svc_rack_units{rack="r2",site="dc \\"1\\"",state="free"} 12',
    ]);
  });

  it("prefix_utilisation_percent: one series per prefix, as the API computes it", async () => {
    const [vrf] = await m.t.sql`insert into vrfs (name) values ('red') returning id`;
    await m.t.sql`insert into prefixes (prefix, status) values ('10.77.0.0/24', 'container'), ('10.77.0.0/25', 'active')`;
    await m.t.sql`insert into prefixes (prefix, vrf_id, mark_utilized) values ('2001:db8::/64', ${vrf!.id}, true)`;
    const after = await scrape();
    const samples = familySamples(after, "prefix_utilisation_percent").map((l) => l.replace(/id="\d+",/, ""));
    expect(samples).toEqual([
      'prefix_utilisation_percent{prefix="10.77.0.0/24",vrf="",status="container"} 50',
      'prefix_utilisation_percent{prefix="10.77.0.0/25",vrf="",status="active"} 0',
      'prefix_utilisation_percent{prefix="2001:db8::/64",vrf="red",status="active"} 100',
    ]);
    await m.t.sql`delete from prefixes`;
    await m.t.sql`delete from vrfs`;
    expect(await scrape()).toBe(text);
  });

  it("builds each scrape from the data stored at that moment", async () => {
    await m.t.sql`insert into services (name, slug, status) values ('late', 'late', 'stopped')`;
    await m.t.sql`update hardware set memory_gb = null where name = 'node-a'`;
    const after = await scrape();
    expect(familySamples(after, "svc_services_total")).toEqual(["svc_services_total 5"]);
    expect(after).toContain('svc_services_by_status_total{status="stopped"} 1\n');
    expect(after).toContain('svc_service_status{name="late",slug="late",environment="",status="stopped"} 1\n');
    expect(familySamples(after, "svc_hardware_memory_configured_gb")).toEqual([
      'svc_hardware_memory_configured_gb{name="node-b",role=""} 12.5',
    ]);
    await m.t.sql`delete from services where slug = 'late'`;
    await m.t.sql`update hardware set memory_gb = 64 where name = 'node-a'`;
    expect(await scrape()).toBe(text);
  });

  it("writes the same text whatever the page size, and the endpoint streams exactly that", async () => {
    const db = m.t.runtime.deps.database.lease().db;
    for (const size of [1, 2, 3, 1000]) expect(await scrapeText(db, "0.0.0-test", size)).toBe(text);
  });
});
