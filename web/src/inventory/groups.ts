// The inventory groups the console lists, shows and edits: one definition each, typed against the API.
// Adding a group is adding a definition here (and its key to GroupKey).
import { defineGroup, type Group, type GroupKey } from "./types.ts";

const STORAGE_KINDS = ["disk", "pool", "dataset", "share"] as const;
const IP_STATUSES = ["allocated", "reserved", "dhcp", "free"] as const;
const ASSIGNED_TYPES = ["hardware", "compute_unit", "service"] as const;

const hardware = defineGroup({
  key: "hardware", title: "Hardware", noun: "hardware node", bulk: { tags: true },
  listPath: "/api/v1/hardware", itemPath: "/api/v1/hardware/{hardware_id}", idParam: "hardware_id",
  writeScope: "write:hardware", deleteScope: "delete:hardware",
  columns: [
    { name: "name", label: "Name" }, { name: "role", label: "Role" }, { name: "ip_address", label: "Address" },
    { name: "vendor", label: "Vendor" }, { name: "memory_gb", label: "Memory (GB)" }, { name: "effective_status", label: "Effective status" },
  ],
  sorts: ["name", "role", "status", "vendor", "ip_address", "memory_gb", "updated_at"],
  filters: [
    { name: "status", label: "Status", options: ["up", "down", "degraded", "maintenance", "unknown"] },
    { name: "role", label: "Role" }, { name: "vendor", label: "Vendor" }, { name: "tag", label: "Tag" },
  ],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "role", label: "Role", kind: "text", hint: "server, switch, router, nas…" },
    { name: "ip_address", label: "IP address", kind: "text" },
    { name: "vendor", label: "Vendor", kind: "text" },
    { name: "model", label: "Model", kind: "text" },
    { name: "cpu", label: "CPU", kind: "text" },
    { name: "memory_gb", label: "Memory (GB)", kind: "number" },
    { name: "location", label: "Location", kind: "text" },
    { name: "status", label: "Status", kind: "select", options: ["up", "down", "degraded", "maintenance", "unknown"] },
    { name: "tags", label: "Tags", kind: "tags", hint: "Comma-separated" },
    { name: "notes", label: "Notes", kind: "textarea" },
  ],
  relations: [
    { label: "Compute units on it", path: "/api/v1/compute-units", params: (id) => ({ query: { hardware_id: id } }), group: "compute", idField: "id", show: ["kind", "status"] },
    { label: "Services on it", path: "/api/v1/services", params: (id) => ({ query: { hardware_id: id } }), group: "services", idField: "id", show: ["status"] },
    { label: "Storage on it", path: "/api/v1/storage", params: (id) => ({ query: { hardware_id: id } }), group: "storage", idField: "id", show: ["kind", "used_pct"] },
    { label: "Connections", path: "/api/v1/hardware/{hardware_id}/connections", params: (id) => ({ path: { hardware_id: id } }), group: "hardware", idField: "target_hardware_id", show: ["connection_type", "bandwidth_mbps"] },
  ],
});

const compute = defineGroup({
  key: "compute", title: "Compute units", noun: "compute unit", bulk: { tags: true },
  listPath: "/api/v1/compute-units", itemPath: "/api/v1/compute-units/{cu_id}", idParam: "cu_id",
  writeScope: "write:compute", deleteScope: "delete:compute",
  columns: [
    { name: "name", label: "Name" }, { name: "kind", label: "Kind" }, { name: "hardware_name", label: "Host" },
    { name: "ip_address", label: "Address" }, { name: "cpu_cores", label: "Cores" }, { name: "memory_mb", label: "Memory (MB)" }, { name: "status", label: "Status" },
  ],
  sorts: ["name", "kind", "status", "ip_address", "cpu_cores", "memory_mb", "updated_at"],
  filters: [
    { name: "kind", label: "Kind", options: ["vm", "container"] },
    { name: "status", label: "Status" }, { name: "tag", label: "Tag" },
  ],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "kind", label: "Kind", kind: "select", options: ["vm", "container"] },
    { name: "hardware_id", label: "Host", kind: "ref", ref: "hardware" },
    { name: "ip_address", label: "IP address", kind: "text" },
    { name: "os", label: "Operating system", kind: "text" },
    { name: "cpu_cores", label: "CPU cores", kind: "number" },
    { name: "memory_mb", label: "Memory (MB)", kind: "number" },
    { name: "disk_gb", label: "Disk (GB)", kind: "number" },
    { name: "status", label: "Status", kind: "text" },
    { name: "tags", label: "Tags", kind: "tags", hint: "Comma-separated" },
    { name: "notes", label: "Notes", kind: "textarea" },
  ],
  relations: [
    { label: "Services on it", path: "/api/v1/services", params: (id) => ({ query: { compute_id: id } }), group: "services", idField: "id", show: ["status"] },
  ],
});

const services = defineGroup({
  key: "services", title: "Services", noun: "service", bulk: { tags: true },
  listPath: "/api/v1/services", itemPath: "/api/v1/services/{service_id}", idParam: "service_id",
  writeScope: "write:services", deleteScope: "delete:services",
  columns: [
    { name: "name", label: "Name" }, { name: "environment", label: "Environment" }, { name: "ip_address", label: "Address" },
    { name: "url", label: "URL" }, { name: "status", label: "Status" },
  ],
  sorts: ["name", "slug", "status", "environment", "ip_address", "updated_at"],
  filters: [
    { name: "status", label: "Status", options: ["running", "stopped", "degraded", "maintenance"] },
    { name: "environment", label: "Environment" }, { name: "tag", label: "Tag" },
  ],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "status", label: "Status", kind: "select", options: ["running", "stopped", "degraded", "maintenance"] },
    { name: "environment", label: "Environment", kind: "text" },
    { name: "hardware_id", label: "Hardware", kind: "ref", ref: "hardware" },
    { name: "compute_id", label: "Compute unit", kind: "ref", ref: "compute" },
    { name: "ip_address", label: "IP address", kind: "text" },
    { name: "url", label: "URL", kind: "text" },
    { name: "tags", label: "Tags", kind: "tags", hint: "Comma-separated" },
    { name: "description", label: "Description", kind: "textarea" },
  ],
  relations: [
    { label: "Depends on", path: "/api/v1/services/{service_id}/dependencies", params: (id) => ({ path: { service_id: id } }), group: "services", idField: "id", show: ["status"] },
  ],
});

const networks = defineGroup({
  key: "networks", title: "Networks", noun: "network", bulk: { tags: true },
  listPath: "/api/v1/networks", itemPath: "/api/v1/networks/{network_id}", idParam: "network_id",
  writeScope: "write:networks", deleteScope: "delete:networks",
  columns: [
    { name: "name", label: "Name" }, { name: "cidr", label: "CIDR" }, { name: "vlan_id", label: "VLAN" },
    { name: "gateway", label: "Gateway" }, { name: "site_name", label: "Site" },
  ],
  sorts: ["name", "cidr", "vlan_id", "updated_at"],
  filters: [{ name: "vlan_id", label: "VLAN" }, { name: "tag", label: "Tag" }],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "cidr", label: "CIDR", kind: "text", hint: "e.g. 10.0.0.0/24" },
    { name: "vlan_id", label: "VLAN id", kind: "number" },
    { name: "gateway", label: "Gateway", kind: "text" },
    { name: "tags", label: "Tags", kind: "tags", hint: "Comma-separated" },
    { name: "description", label: "Description", kind: "textarea" },
  ],
  relations: [
    { label: "Hardware members", path: "/api/v1/networks/{network_id}/hardware-members", params: (id) => ({ path: { network_id: id } }), group: "hardware", idField: "hardware_id", show: ["ip_address", "status"] },
    { label: "Recorded addresses", path: "/api/v1/ipam", params: (id) => ({ query: { network_id: id } }), group: "ipam", idField: "id", nameField: "address", show: ["status", "hostname"] },
    { label: "Compute members", path: "/api/v1/networks/{network_id}/members", params: (id) => ({ path: { network_id: id } }), group: "compute", idField: "compute_id", show: ["kind", "ip_address", "status"] },
  ],
});

const storage = defineGroup({
  key: "storage", title: "Storage", noun: "storage item", bulk: { tags: true },
  listPath: "/api/v1/storage", itemPath: "/api/v1/storage/{storage_id}", idParam: "storage_id",
  writeScope: "write:storage", deleteScope: "delete:storage",
  columns: [
    { name: "name", label: "Name" }, { name: "kind", label: "Kind" }, { name: "hardware_name", label: "Hardware" },
    { name: "capacity_gb", label: "Capacity (GB)" }, { name: "used_pct", label: "Used (%)" }, { name: "path", label: "Path" },
  ],
  sorts: ["name", "kind", "capacity_gb", "used_gb", "path", "updated_at"],
  filters: [{ name: "kind", label: "Kind", options: STORAGE_KINDS }, { name: "hardware_id", label: "Hardware id" }, { name: "tag", label: "Tag" }],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "kind", label: "Kind", kind: "select", options: STORAGE_KINDS },
    { name: "hardware_id", label: "Hardware", kind: "ref", ref: "hardware" },
    { name: "capacity_gb", label: "Capacity (GB)", kind: "number" },
    { name: "used_gb", label: "Used (GB)", kind: "number" },
    { name: "path", label: "Path", kind: "text", hint: "/tank, //nas/share…" },
    { name: "tags", label: "Tags", kind: "tags", hint: "Comma-separated" },
    { name: "notes", label: "Notes", kind: "textarea" },
  ],
  relations: [],
});

const clusters = defineGroup({
  key: "clusters", title: "Clusters", noun: "hardware cluster", bulk: { tags: false },
  listPath: "/api/v1/hardware-clusters", itemPath: "/api/v1/hardware-clusters/{cluster_id}", idParam: "cluster_id",
  writeScope: "write:clusters", deleteScope: "delete:clusters",
  columns: [{ name: "name", label: "Name" }, { name: "type", label: "Type" }, { name: "environment_name", label: "Environment" }, { name: "description", label: "Description" }],
  sorts: ["name", "type", "updated_at"],
  filters: [{ name: "type", label: "Type" }, { name: "environment_id", label: "Environment id" }],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "type", label: "Type", kind: "text", hint: "proxmox, k8s, ceph…" },
    { name: "environment_id", label: "Environment", kind: "ref", ref: "environments" },
    { name: "description", label: "Description", kind: "textarea" },
  ],
  relations: [
    { label: "Members", path: "/api/v1/hardware-clusters/{cluster_id}/members", params: (id) => ({ path: { cluster_id: id } }), group: "hardware", idField: "hardware_id", nameField: "hardware_name", show: ["role"] },
  ],
});

const external = defineGroup({
  key: "external", title: "External nodes", noun: "external node", bulk: { tags: true },
  listPath: "/api/v1/external-nodes", itemPath: "/api/v1/external-nodes/{node_id}", idParam: "node_id",
  writeScope: "write:external", deleteScope: "delete:external",
  columns: [
    { name: "name", label: "Name" }, { name: "provider", label: "Provider" }, { name: "kind", label: "Kind" },
    { name: "region", label: "Region" }, { name: "ip_address", label: "Address" }, { name: "url", label: "URL" },
  ],
  sorts: ["name", "provider", "kind", "region", "ip_address", "updated_at"],
  filters: [{ name: "provider", label: "Provider" }, { name: "kind", label: "Kind" }, { name: "region", label: "Region" }, { name: "tag", label: "Tag" }],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "provider", label: "Provider", kind: "text", hint: "aws, cloudflare, isp…" },
    { name: "kind", label: "Kind", kind: "text" },
    { name: "region", label: "Region", kind: "text" },
    { name: "ip_address", label: "IP address", kind: "text" },
    { name: "url", label: "URL", kind: "text", hint: "http:// or https://" },
    { name: "tags", label: "Tags", kind: "tags", hint: "Comma-separated" },
    { name: "notes", label: "Notes", kind: "textarea" },
  ],
  relations: [
    { label: "Networks", path: "/api/v1/external-nodes/{node_id}/networks", params: (id) => ({ path: { node_id: id } }), group: "networks", idField: "network_id", nameField: "network_name", show: ["cidr", "link_type"] },
    { label: "Services that depend on it", path: "/api/v1/external-nodes/{node_id}/services", params: (id) => ({ path: { node_id: id } }), group: "services", idField: "id", show: ["status"] },
  ],
});

const misc = defineGroup({
  key: "misc", title: "Misc", noun: "misc item", bulk: { tags: true },
  listPath: "/api/v1/misc", itemPath: "/api/v1/misc/{item_id}", idParam: "item_id",
  writeScope: "write:misc", deleteScope: "delete:misc",
  columns: [{ name: "name", label: "Name" }, { name: "kind", label: "Kind" }, { name: "url", label: "URL" }, { name: "tags", label: "Tags" }],
  sorts: ["name", "kind", "updated_at"],
  filters: [{ name: "kind", label: "Kind" }, { name: "tag", label: "Tag" }],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "kind", label: "Kind", kind: "text", hint: "licence, domain, ups…" },
    { name: "url", label: "URL", kind: "text", hint: "http:// or https://" },
    { name: "tags", label: "Tags", kind: "tags", hint: "Comma-separated" },
    { name: "description", label: "Description", kind: "textarea" },
  ],
  relations: [],
});

const sites = defineGroup({
  key: "sites", title: "Sites", noun: "site", bulk: { tags: false },
  listPath: "/api/v1/sites", itemPath: "/api/v1/sites/{site_id}", idParam: "site_id",
  writeScope: "write:sites", deleteScope: "delete:sites",
  columns: [{ name: "name", label: "Name" }, { name: "address", label: "Address" }, { name: "latitude", label: "Latitude" }, { name: "longitude", label: "Longitude" }],
  sorts: ["name", "updated_at"],
  filters: [],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "address", label: "Address", kind: "text" },
    { name: "latitude", label: "Latitude", kind: "number", hint: "-90 to 90" },
    { name: "longitude", label: "Longitude", kind: "number", hint: "-180 to 180" },
    { name: "description", label: "Description", kind: "textarea" },
    { name: "notes", label: "Notes", kind: "textarea" },
  ],
  relations: [
    { label: "Hardware at this site", path: "/api/v1/hardware", params: (id) => ({ query: { site_id: id } }), group: "hardware", idField: "id", show: ["role", "status"] },
    { label: "Networks at this site", path: "/api/v1/networks", params: (id) => ({ query: { site_id: id } }), group: "networks", idField: "id", show: ["cidr"] },
    { label: "VLANs at this site", path: "/api/v1/vlans", params: (id) => ({ query: { site_id: id } }), group: "vlans", idField: "id", show: ["vlan_id"] },
  ],
});

const vlans = defineGroup({
  key: "vlans", title: "VLANs", noun: "VLAN", bulk: { tags: false },
  listPath: "/api/v1/vlans", itemPath: "/api/v1/vlans/{vlan_pk}", idParam: "vlan_pk",
  // VLANs are network records: they share the networks scopes.
  writeScope: "write:networks", deleteScope: "delete:networks",
  columns: [{ name: "name", label: "Name" }, { name: "vlan_id", label: "Tag (802.1Q)" }, { name: "site_name", label: "Site" }, { name: "description", label: "Description" }],
  sorts: ["name", "vlan_id", "updated_at"],
  filters: [{ name: "vlan_id", label: "Tag" }, { name: "site_id", label: "Site id" }],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "vlan_id", label: "Tag (802.1Q)", kind: "number", hint: "1 to 4094" },
    { name: "site_id", label: "Site", kind: "ref", ref: "sites" },
    { name: "description", label: "Description", kind: "textarea" },
  ],
  relations: [],
});

const ipam = defineGroup({
  key: "ipam", title: "IP addresses", noun: "IP address", bulk: { tags: false },
  listPath: "/api/v1/ipam", itemPath: "/api/v1/ipam/{ip_id}", idParam: "ip_id", titleField: "address",
  // Recorded addresses belong to networks: they share the networks scopes.
  writeScope: "write:networks", deleteScope: "delete:networks",
  columns: [
    { name: "address", label: "Address" }, { name: "status", label: "Status" }, { name: "hostname", label: "Hostname" },
    { name: "network_name", label: "Network" }, { name: "mac_address", label: "MAC" }, { name: "assigned_type", label: "Assigned to" },
  ],
  sorts: ["address", "status", "hostname", "updated_at"],
  filters: [
    { name: "status", label: "Status", options: IP_STATUSES },
    { name: "assigned_type", label: "Assigned to", options: ASSIGNED_TYPES }, { name: "network_id", label: "Network id" },
  ],
  fields: [
    { name: "address", label: "Address", kind: "text" },
    { name: "network_id", label: "Network", kind: "ref", ref: "networks" },
    { name: "status", label: "Status", kind: "select", options: IP_STATUSES },
    { name: "hostname", label: "Hostname", kind: "text" },
    { name: "mac_address", label: "MAC address", kind: "text", hint: "aa:bb:cc:dd:ee:ff" },
    { name: "assigned_type", label: "Assigned to (kind)", kind: "select", options: ASSIGNED_TYPES },
    { name: "assigned_id", label: "Assigned to (id)", kind: "number", hint: "The id of the hardware node, compute unit or service" },
    { name: "description", label: "Description", kind: "textarea" },
  ],
  relations: [],
});

const environments = defineGroup({
  key: "environments", title: "Environments", noun: "environment", bulk: { tags: false },
  listPath: "/api/v1/environments", itemPath: "/api/v1/environments/{environment_id}", idParam: "environment_id",
  // Labels services carry: the services scopes.
  writeScope: "write:services", deleteScope: "delete:services",
  columns: [{ name: "name", label: "Name" }, { name: "color", label: "Colour" }, { name: "description", label: "Description" }],
  sorts: ["name", "updated_at"],
  filters: [],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "color", label: "Colour", kind: "text", hint: "#rrggbb" },
    { name: "description", label: "Description", kind: "textarea" },
  ],
  relations: [
    { label: "Hardware in it", path: "/api/v1/hardware", params: (id) => ({ query: { environment_id: id } }), group: "hardware", idField: "id", show: ["role", "status"] },
    { label: "Clusters in it", path: "/api/v1/hardware-clusters", params: (id) => ({ query: { environment_id: id } }), group: "clusters", idField: "id", show: ["type"] },
    { label: "Services in it", path: "/api/v1/services", params: (id) => ({ query: { environment_id: id } }), group: "services", idField: "id", show: ["status"] },
  ],
});

const categories = defineGroup({
  key: "categories", title: "Categories", noun: "category", bulk: { tags: false },
  listPath: "/api/v1/categories", itemPath: "/api/v1/categories/{category_id}", idParam: "category_id",
  writeScope: "write:services", deleteScope: "delete:services",
  columns: [{ name: "name", label: "Name" }, { name: "color", label: "Colour" }, { name: "icon", label: "Icon" }, { name: "description", label: "Description" }],
  sorts: ["name", "updated_at"],
  filters: [],
  fields: [
    { name: "name", label: "Name", kind: "text" },
    { name: "color", label: "Colour", kind: "text", hint: "#rrggbb" },
    { name: "icon", label: "Icon", kind: "text" },
    { name: "description", label: "Description", kind: "textarea" },
  ],
  relations: [
    { label: "Services in it", path: "/api/v1/services", params: (id) => ({ query: { category_id: id } }), group: "services", idField: "id", show: ["status"] },
  ],
});

export const GROUPS: Record<GroupKey, Group> = { hardware, compute, services, networks, storage, clusters, external, misc, sites, vlans, ipam, environments, categories };

export function groupOf(key: string | undefined): Group | undefined {
  return key && Object.hasOwn(GROUPS, key) ? GROUPS[key as GroupKey] : undefined;
}
