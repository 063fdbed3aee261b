// The inventory groups the console lists, shows and edits: one definition each, typed against the API.
// Adding a group is adding a definition here (and its key to GroupKey).
import { defineGroup, type Group, type GroupKey } from "./types.ts";

const hardware = defineGroup({
  key: "hardware", title: "Hardware", noun: "hardware node",
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
    { label: "Connections", path: "/api/v1/hardware/{hardware_id}/connections", params: (id) => ({ path: { hardware_id: id } }), group: "hardware", idField: "target_hardware_id", show: ["connection_type", "bandwidth_mbps"] },
  ],
});

const compute = defineGroup({
  key: "compute", title: "Compute units", noun: "compute unit",
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
  key: "services", title: "Services", noun: "service",
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
  key: "networks", title: "Networks", noun: "network",
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
    { label: "Compute members", path: "/api/v1/networks/{network_id}/members", params: (id) => ({ path: { network_id: id } }), group: "compute", idField: "compute_id", show: ["kind", "ip_address", "status"] },
  ],
});

export const GROUPS: Record<GroupKey, Group> = { hardware, compute, services, networks };

export function groupOf(key: string | undefined): Group | undefined {
  return key && Object.hasOwn(GROUPS, key) ? GROUPS[key as GroupKey] : undefined;
}
