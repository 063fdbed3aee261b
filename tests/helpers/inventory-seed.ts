// A small but complete inventory written straight into a test database: every kind of the export
// document with at least one row and every relation between them, tags (as arrays and as the tag
// set) and documents attached to entities.
import type postgres from "postgres";

export async function seedRichInventory(sql: postgres.Sql): Promise<void> {
  await sql.begin(async (tx) => {
    const [site] = await tx`insert into sites (name, address, latitude, longitude) values ('Lab', 'Basement', 47.5, 8.25) returning id`;
    const [env] = await tx`insert into environments (name, color) values ('prod', '#ff0000') returning id`;
    const [cat] = await tx`insert into categories (name, icon) values ('Media', 'film') returning id`;
    await tx`insert into tags (name, color) values ('core', '#00ff00'), ('edge', null)`;
    const [rack] =
      await tx`insert into racks (site_id, name, u_height, numbering, facility_id, tags) values (${site!.id}, 'rack-a', 24, 'top_down', 'A01', '{core}') returning id`;
    await tx`insert into rack_reservations (rack_id, first_unit, u_count, reason, created_by) values (${rack!.id}, 20, 2, 'UPS', 'admin@example.com')`;
    const [h1] =
      await tx`insert into hardware (name, role, vendor, memory_gb, ip_address, environment_id, site_id, tags, notes, rack_id, rack_unit, u_height, rack_face)
                          values ('pve-1', 'hypervisor', 'Dell', 64.5, '10.0.0.2', ${env!.id}, ${site!.id}, '{core,edge}', 'line 1
line "2" ü', ${rack!.id}, 3, 2, 'both') returning id`;
    const [h2] = await tx`insert into hardware (name, role, tags) values ('switch-1', 'switch', '{edge}') returning id`;
    const [conn] =
      await tx`insert into hardware_connections (source_hardware_id, target_hardware_id, connection_type, bandwidth_mbps) values (${h1!.id}, ${h2!.id}, 'ethernet', 10000) returning id`;
    // Ports and cables: a lag with a member cabled through a patch panel (the switch's), a PDU outlet feeding a PSU.
    const [lag] = await tx`insert into interfaces (hardware_id, name, type) values (${h1!.id}, 'bond0', 'lag') returning id`;
    const [nic] =
      await tx`insert into interfaces (hardware_id, name, speed_mbps, mac_address, lag_id, vlan_mode, tagged_vlan_ids) values (${h1!.id}, 'eth0', 10000, 'aa:bb:cc:dd:ee:01', ${lag!.id}, 'tagged-all', '{}') returning id`;
    const [rear] = await tx`insert into rear_ports (hardware_id, name, type, positions) values (${h2!.id}, 'R1', 'mpo', 2) returning id`;
    const [front] =
      await tx`insert into front_ports (hardware_id, name, rear_port_id, rear_position) values (${h2!.id}, 'F1', ${rear!.id}, 2) returning id`;
    const [psu] =
      await tx`insert into power_ports (hardware_id, name, allocated_w, maximum_w) values (${h1!.id}, 'PSU1', 180, 450) returning id`;
    const [outlet] = await tx`insert into power_outlets (hardware_id, name) values (${h2!.id}, 'A1') returning id`;
    await tx`insert into cables (a_kind, a_id, b_kind, b_id, type, label, colour, length, length_unit, connection_id)
             values ('interface', ${nic!.id}, 'front_port', ${front!.id}, 'cat6', 'C-1', 'blue', 1.5, 'm', ${conn!.id}),
                    ('power_outlet', ${outlet!.id}, 'power_port', ${psu!.id}, 'power', null, null, null, null, null)`;
    const [cu] =
      await tx`insert into compute_units (name, kind, hardware_id, memory_mb, cpu_cores, environment_id, tags) values ('vm-1', 'vm', ${h1!.id}, 4096, 2.5, ${env!.id}, '{core}') returning id`;
    const [st] =
      await tx`insert into storage (name, kind, capacity_gb, used_gb, hardware_id) values ('tank', 'pool', 1000, 250.25, ${h1!.id}) returning id`;
    const [s1] = await tx`insert into services (name, slug, environment_id, hardware_id, compute_id, category_id, ports, tags)
                          values ('Plex', 'plex', ${env!.id}, ${h1!.id}, ${cu!.id}, ${cat!.id}, ${sql.json([{ ip: null, port: 32400, protocol: "tcp", label: "web" }])}, '{core}') returning id`;
    const [s2] = await tx`insert into services (name, slug, compute_id) values ('Postgres', 'postgres', ${cu!.id}) returning id`;
    await tx`insert into service_dependencies (service_id, depends_on_id) values (${s1!.id}, ${s2!.id})`;
    await tx`insert into service_storage (service_id, storage_id, mount_path) values (${s1!.id}, ${st!.id}, '/media')`;
    const [vl] = await tx`insert into vlans (vlan_id, name, site_id) values (10, 'servers', ${site!.id}) returning id`;
    const [n1] =
      await tx`insert into networks (name, cidr, vlan_id, gateway, dns_servers, site_id, tags) values ('lan', '10.0.0.0/24', 10, '10.0.0.1', '{10.0.0.1,1.1.1.1}', ${site!.id}, '{edge}') returning id`;
    const [n2] = await tx`insert into networks (name, cidr) values ('dmz', '10.0.1.0/24') returning id`;
    await tx`insert into network_peers (network_id, peer_network_id, description) values (${n1!.id}, ${n2!.id}, 'routed')`;
    await tx`insert into network_members (network_id, compute_id, ip_address) values (${n1!.id}, ${cu!.id}, '10.0.0.20')`;
    await tx`insert into network_hardware_members (network_id, hardware_id, ip_address) values (${n1!.id}, ${h1!.id}, '10.0.0.2')`;
    await tx`insert into ip_addresses (address, network_id, hostname, assigned_type, assigned_id) values ('10.0.0.2', ${n1!.id}, 'pve-1', 'hardware', ${h1!.id})`;
    const [cl] = await tx`insert into hardware_clusters (name, type, environment_id) values ('pve', 'proxmox', ${env!.id}) returning id`;
    await tx`insert into cluster_members (cluster_id, hardware_id, role) values (${cl!.id}, ${h1!.id}, 'primary')`;
    const [ex] =
      await tx`insert into external_nodes (name, provider, ip_address, tags) values ('vps', 'hetzner', '203.0.113.5', '{edge}') returning id`;
    await tx`insert into external_node_networks (external_node_id, network_id, link_type) values (${ex!.id}, ${n1!.id}, 'vpn')`;
    await tx`insert into service_external_dependencies (service_id, external_node_id, description) values (${s1!.id}, ${ex!.id}, 'backup target')`;
    const [mi] = await tx`insert into misc_items (name, kind, url) values ('UPS', 'power', 'http://ups.local') returning id`;
    await tx`insert into service_misc (service_id, misc_id) values (${s1!.id}, ${mi!.id})`;
    const [doc] =
      await tx`insert into docs (title, body_md, category, pinned) values ('Runbook', '# Restart\nsteps', 'ops', true) returning id`;
    await tx`insert into doc_entities (doc_id, entity_type, entity_id) values (${doc!.id}, 'hardware', ${h1!.id}), (${doc!.id}, 'service', ${s1!.id})`;
    // An author who is not exported (users are not), and an entry on a kind outside the graph's.
    await tx`insert into journal_entries (object_type, object_id, kind, comments, created_by)
             values ('hardware', ${h1!.id}, 'warning', 'PSU **fan** noisy', (select min(id) from users)),
                    ('vlan', ${vl!.id}, 'info', 'trunked to the core', null)`;
    const [vrf] = await tx`insert into vrfs (name, rd, tags) values ('customer-a', '65000:1', '{tenant}') returning id`;
    await tx`insert into prefixes (prefix, vrf_id, status, site_id, vlan_id, description) values ('10.0.0.0/16', ${vrf!.id}, 'container', ${site!.id}, ${vl!.id}, 'tenant space')`;
  });
}

/** Row counts of every inventory table and of the tables clear-lab and an import must leave alone. */
export async function tableCounts(sql: postgres.Sql): Promise<Record<string, number>> {
  const tables = [
    "sites",
    "racks",
    "rack_reservations",
    "environments",
    "categories",
    "tags",
    "hardware",
    "hardware_connections",
    "interfaces",
    "rear_ports",
    "front_ports",
    "power_ports",
    "power_outlets",
    "cables",
    "compute_units",
    "storage",
    "vlans",
    "vrfs",
    "prefixes",
    "networks",
    "ip_addresses",
    "network_peers",
    "services",
    "service_dependencies",
    "service_storage",
    "misc_items",
    "service_misc",
    "network_hardware_members",
    "network_members",
    "hardware_clusters",
    "cluster_members",
    "external_nodes",
    "external_node_networks",
    "service_external_dependencies",
    "docs",
    "doc_entities",
    "journal_entries",
    "monitors",
    "users",
  ];
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = Number((await sql.unsafe(`select count(*)::int as n from "${t}"`))[0]!.n);
  return out;
}
