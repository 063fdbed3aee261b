// Seeds the issue-4 inventory with set-based SQL (generate_series), so a full-size seed takes seconds:
// 10,000 hardware nodes, 50,000 compute units, 100,000 services with ~200,000 dependency edges, 20,000
// storage items and 2,000 networks at scale 1. The shape is a lab's, not random noise:
// - racks of 20 nodes: the first node of each rack is its switch, connected to the other 19, and every
//   5 consecutive nodes share a network, so a switch going down takes its rack with it;
// - services form application stacks of 500: each depends on two earlier services of its stack, picked
//   by a fixed hash, so stacks are acyclic and a few levels deep, as real dependency graphs are.
import type postgres from "postgres";

export interface SeedCounts {
  hardware: number;
  compute_units: number;
  services: number;
  dependencies: number;
  storage: number;
  networks: number;
}

export async function seedInventory(sql: postgres.Sql, scale: number): Promise<SeedCounts> {
  const n = (x: number) => Math.max(10, Math.round(x * scale));
  const c: SeedCounts = {
    hardware: n(10_000),
    compute_units: n(50_000),
    services: n(100_000),
    dependencies: 0,
    storage: n(20_000),
    networks: n(2_000),
  };
  await sql`insert into environments (name) values ('production'), ('staging'), ('lab')`;
  await sql`
    insert into hardware (name, role, vendor, memory_gb, ip_address, status, environment_id, tags)
    select 'node-' || lpad(i::text, 6, '0'), (array['hypervisor','nas','switch','router'])[1 + i % 4],
           (array['Dell','HPE','Supermicro','Lenovo'])[1 + i % 4], (16 * (1 + i % 8))::float8,
           '10.' || (i / 65536) % 256 || '.' || (i / 256) % 256 || '.' || i % 256,
           -- A few nodes down, not a fifth of the lab: the status worker records a critical DOWN event
           -- (with its blast radius) for each one 5 minutes in, and that must not load the later benches.
           case when i % 500 = 250 then 'down' when i % 5 = 4 then 'degraded' else 'up' end, 1 + i % 3, array['rack-' || (i % 20)]
    from generate_series(1, ${c.hardware}) i`;
  await sql`
    insert into compute_units (name, kind, hardware_id, memory_mb, cpu_cores, status)
    select 'cu-' || lpad(i::text, 6, '0'), case when i % 3 = 0 then 'container' else 'vm' end,
           1 + i % ${c.hardware}, 1024 * (1 + i % 16), 1 + i % 8, 'running'
    from generate_series(1, ${c.compute_units}) i`;
  await sql`
    insert into services (name, slug, environment, status, compute_id, hardware_id, ports)
    select 'service-' || lpad(i::text, 6, '0'), 'service-' || i, (array['production','staging','lab'])[1 + i % 3],
           (array['running','running','running','stopped','degraded','maintenance'])[1 + i % 6],
           case when i % 4 = 0 then null else 1 + i % ${c.compute_units} end,
           case when i % 4 = 0 then 1 + i % ${c.hardware} else null end, '[]'::jsonb
    from generate_series(1, ${c.services}) i`;
  await sql`
    insert into service_dependencies (service_id, depends_on_id)
    select i, i - p + q from (
      select i, (i - 1) % 500 as p, ((i::bigint * 2654435761) % ((i - 1) % 500))::int as q1,
             ((i::bigint * 40503) % ((i - 1) % 500 - 1))::int as off
      from generate_series(1, ${c.services}) i where (i - 1) % 500 >= 2
    ) s, lateral (values (q1), ((q1 + 1 + off) % p)) d(q)`;
  c.dependencies = Number((await sql`select count(*)::int as n from service_dependencies`)[0]!.n);
  await sql`
    insert into storage (name, kind, capacity_gb, used_gb, hardware_id)
    select 'vol-' || lpad(i::text, 6, '0'), (array['disk','pool','dataset','share'])[1 + i % 4], 1000, (i % 1000)::float8, 1 + i % ${c.hardware}
    from generate_series(1, ${c.storage}) i`;
  await sql`
    insert into networks (name, cidr, vlan_id)
    select 'net-' || lpad(i::text, 5, '0'), '10.' || (i / 256) % 256 || '.' || i % 256 || '.0/24', 1 + i % 4000
    from generate_series(1, ${c.networks}) i`;
  await sql`
    insert into network_hardware_members (network_id, hardware_id)
    select 1 + ((i - 1) / 5) % ${c.networks}, i from generate_series(1, ${c.hardware}) i`;
  await sql`
    insert into hardware_connections (source_hardware_id, target_hardware_id, connection_type, bandwidth_mbps)
    select (i - 1) / 20 * 20 + 1, i, 'ethernet', 10000 from generate_series(1, ${c.hardware}) i where (i - 1) % 20 <> 0`;
  // As autovacuum would have by now: visibility map and statistics, so counts can use index-only scans.
  await sql`vacuum analyze`;
  return c;
}
