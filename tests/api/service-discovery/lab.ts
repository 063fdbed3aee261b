// The service discovery tests' inventory, written straight into the test database: a site, an
// environment, hardware with and without an address, a VM and a container (one whose name cannot be a
// host name), and services whose ports take their address from the port, the service or the host.
import type postgres from "postgres";
import { expect } from "vitest";
import type { Actors } from "../../helpers/actors.ts";

export interface SdLab {
  siteId: number;
  nodeA: number;
  vm: number;
  container: number;
}

export async function populateSdLab(sql: postgres.Sql, exporterPort = 9100): Promise<SdLab> {
  const [site] = await sql<{ id: number }[]>`insert into sites (name) values ('Berlin DC-1') returning id`;
  await sql`insert into sites (name) values ('Empty site')`;
  const [env] = await sql<{ id: number }[]>`insert into environments (name) values ('prod') returning id`;
  const [nodeA] = await sql<
    { id: number }[]
  >`insert into hardware (name, role, vendor, ip_address, mac_address, site_id, environment_id, tags, notes)
    values ('node-a', 'Hypervisor', 'Dell', '127.0.0.1/8', 'aa:bb:cc:dd:ee:01', ${site!.id}, ${env!.id}, ${["critical", "web tier"]}, 'root password is hunter2')
    returning id`;
  await sql`insert into hardware (name, role) values ('node-b', 'nas')`;
  const [vm] = await sql<
    { id: number }[]
  >`insert into compute_units (name, kind, hardware_id, ip_address, os, memory_mb, environment_id, tags)
    values ('web-1', 'vm', ${nodeA!.id}, '127.0.0.2', 'debian', 2048, ${env!.id}, ${["web"]}) returning id`;
  const [container] = await sql<{ id: number }[]>`insert into compute_units (name, kind, hardware_id, ip_address)
    values ('Cache Box', 'container', ${nodeA!.id}, 'fd00::12') returning id`;
  await sql`insert into services (name, slug, status, compute_id, environment_id, ports, tags) values
    ('web', 'web', 'running', ${vm!.id}, ${env!.id},
     ${sql.json([
       { ip: null, port: exporterPort, protocol: "tcp", label: "metrics" },
       { ip: "127.0.0.3", port: 443, protocol: "tcp", label: "https" },
     ])}, ${["web", "critical"]})`;
  await sql`insert into services (name, slug, status, hardware_id, ports) values
    ('dns', 'dns', 'degraded', ${nodeA!.id}, ${sql.json([{ ip: null, port: 53, protocol: "udp", label: "dns" }])}),
    ('cache', 'cache', 'running', null, ${sql.json([{ ip: null, port: 6379, protocol: "tcp", label: null }])})`;
  await sql`insert into services (name, slug, compute_id, ports) values ('redis', 'redis', ${container!.id}, ${sql.json([{ ip: null, port: 6379, protocol: "tcp", label: "metrics" }])})`;
  return { siteId: site!.id, nodeA: nodeA!.id, vm: vm!.id, container: container!.id };
}

/** Mints an API token holding only `scopes`, as the admin. */
export async function scopedToken(a: Actors, scopes: string[]): Promise<string> {
  const res = await a.req("POST", "auth/api-token", a.admin, { label: `sd ${scopes.join(" ")}`, scopes });
  expect(res.status).toBe(201);
  return (await res.json()).token as string;
}
