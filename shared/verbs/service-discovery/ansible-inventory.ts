// GET /sd/ansible: the inventory as an Ansible inventory script's `--list` answer (docs/adr/0482,
// docs/service-discovery.md). Hosts are hardware, VMs and containers with an address (`ansible_host`);
// groups come from the kind, site, role, environment and tags; host vars are the object's fields as
// `svc_*`, its custom fields (to come, issue 33 item 3) under `svc_custom_fields`. Notes and
// descriptions are left out: free text has no place in a play's variables, and nothing here is secret.
import { sql } from "drizzle-orm";
import { ANSIBLE_INVENTORY_SCOPE } from "../../auth/scopes.ts";
import { queryRows } from "../../db/database.ts";
import { ansibleGroup, ansibleHostNames, bareAddress } from "../../domain/service-discovery-names.ts";
import type { SD_HOST_KINDS } from "../../schemas/service-discovery.ts";
import { defineRead } from "../verb.ts";
import type { VerbContext } from "../verb-context.ts";
import { allOf, checkSdFilters, type SdFilters } from "./filters.ts";

type HostKind = (typeof SD_HOST_KINDS)[number];
type HostVars = Record<string, string | number | boolean | null | string[] | Record<string, unknown>>;

export interface AnsibleInventory {
  _meta: { hostvars: Record<string, HostVars> };
  all: { children: string[] };
  [group: string]: { hosts: string[] } | AnsibleInventory["_meta"] | AnsibleInventory["all"];
}

interface Place {
  site_id: number | null;
  site: string | null;
  environment: string | null;
  tags: string[];
}
interface HardwareRow extends Place {
  id: number;
  name: string;
  ip_address: string;
  mac_address: string | null;
  status: string;
  role: string | null;
  vendor: string | null;
  model: string | null;
  cpu: string | null;
  memory_gb: number | null;
  location: string | null;
}
interface ComputeRow extends Place {
  id: number;
  kind: "vm" | "container";
  name: string;
  ip_address: string;
  status: string;
  os: string | null;
  memory_mb: number | null;
  cpu_cores: number | null;
  disk_gb: number | null;
  host_id: number | null;
  host: string | null;
}
interface Host {
  kind: HostKind;
  id: number;
  name: string;
  address: string;
  status: string;
  role: string | null;
  place: Place;
  /** The kind's own fields, as host vars (already `svc_`-prefixed). */
  own: HostVars;
}

async function hardwareHosts(ctx: VerbContext, f: SdFilters, envId: number | null): Promise<Host[]> {
  const rows = await queryRows<HardwareRow>(
    ctx.db,
    sql`select h.id, h.name, h.ip_address, h.mac_address, h.status, h.role, h.vendor, h.model, h.cpu, h.memory_gb,
               h.location, h.tags, s.id as site_id, s.name as site, e.name as environment
        from hardware h left join sites s on s.id = h.site_id left join environments e on e.id = h.environment_id
        where ${allOf([
          sql`btrim(coalesce(h.ip_address, '')) <> ''`,
          f.site_id !== undefined && sql`h.site_id = ${f.site_id}`,
          envId !== null && sql`h.environment_id = ${envId}`,
          f.tag !== undefined && sql`${f.tag} = any(h.tags)`,
        ])}
        order by h.id`,
  );
  return rows.map((r) => ({
    kind: "hardware",
    id: r.id,
    name: r.name,
    address: bareAddress(r.ip_address) ?? r.ip_address,
    status: r.status,
    role: r.role,
    place: r,
    own: {
      svc_role: r.role,
      svc_vendor: r.vendor,
      svc_model: r.model,
      svc_cpu: r.cpu,
      svc_memory_gb: r.memory_gb,
      svc_mac_address: r.mac_address,
      svc_location: r.location,
    },
  }));
}

async function computeHosts(ctx: VerbContext, f: SdFilters, envId: number | null, kind?: HostKind): Promise<Host[]> {
  const rows = await queryRows<ComputeRow>(
    ctx.db,
    sql`select c.id, c.kind, c.name, c.ip_address, c.status, c.os, c.memory_mb, c.cpu_cores, c.disk_gb, c.tags,
               h.id as host_id, h.name as host, s.id as site_id, s.name as site, e.name as environment
        from compute_units c left join hardware h on h.id = c.hardware_id left join sites s on s.id = h.site_id
             left join environments e on e.id = c.environment_id
        where ${allOf([
          sql`btrim(coalesce(c.ip_address, '')) <> ''`,
          kind !== undefined && sql`c.kind = ${kind}`,
          f.site_id !== undefined && sql`h.site_id = ${f.site_id}`,
          envId !== null && sql`c.environment_id = ${envId}`,
          f.tag !== undefined && sql`${f.tag} = any(c.tags)`,
        ])}
        order by c.id`,
  );
  return rows.map((r) => ({
    kind: r.kind,
    id: r.id,
    name: r.name,
    address: bareAddress(r.ip_address) ?? r.ip_address,
    status: r.status,
    role: null,
    place: r,
    own: {
      svc_os: r.os,
      svc_memory_mb: r.memory_mb,
      svc_cpu_cores: r.cpu_cores,
      svc_disk_gb: r.disk_gb,
      svc_host: r.host,
      svc_host_id: r.host_id,
    },
  }));
}

/** The groups a host is in: its kind always, then site, role, environment and each tag when it has them. */
function groupsOf(h: Host): string[] {
  const named: [string, string | null][] = [
    ["site", h.place.site],
    ["role", h.role],
    ["env", h.place.environment],
    ...h.place.tags.map((t): [string, string] => ["tag", t]),
  ];
  const groups = [`type_${h.kind}`];
  for (const [prefix, value] of named) {
    const g = value === null ? null : ansibleGroup(prefix, value);
    if (g !== null) groups.push(g);
  }
  return groups;
}

export const ansibleInventory = defineRead(
  { scope: ANSIBLE_INVENTORY_SCOPE },
  async (ctx, f: SdFilters & { kind?: HostKind | undefined }): Promise<AnsibleInventory> => {
    const { environmentId } = await checkSdFilters(ctx, f);
    const hosts = [
      ...(f.kind === undefined || f.kind === "hardware" ? await hardwareHosts(ctx, f, environmentId) : []),
      ...(f.kind !== "hardware" ? await computeHosts(ctx, f, environmentId, f.kind) : []),
    ];
    const names = ansibleHostNames(hosts);
    const hostvars: Record<string, HostVars> = {};
    const groups = new Map<string, Set<string>>();
    hosts.forEach((h, i) => {
      const name = names[i]!;
      hostvars[name] = {
        ansible_host: h.address,
        svc_kind: h.kind,
        svc_id: h.id,
        svc_name: h.name,
        svc_status: h.status,
        ...h.own,
        svc_site: h.place.site,
        svc_site_id: h.place.site_id,
        svc_environment: h.place.environment,
        svc_tags: [...h.place.tags].sort(),
        // Custom fields (issue 33 item 3) will land here by name, apart from our own fields so that a
        // custom field can never shadow one of them (docs/adr/0482).
        svc_custom_fields: {},
      };
      for (const g of groupsOf(h)) {
        const members = groups.get(g) ?? new Set<string>();
        groups.set(g, members.add(name));
      }
    });
    const sorted = [...groups.keys()].sort();
    const inventory: AnsibleInventory = { _meta: { hostvars }, all: { children: sorted } };
    for (const g of sorted) inventory[g] = { hosts: [...groups.get(g)!].sort() };
    return inventory;
  },
);
