// One LLDP neighbour as the sidecar read it from a node's LLDP-MIB, and the role a stub made for it
// takes from the capabilities it announces (reference: bridge -> switch, router -> router,
// wlanAccessPoint -> access_point, else misc).
export interface LldpNeighborRead {
  local_port_num: number;
  rem_index: number;
  local_port_desc: string | null;
  remote_chassis_id: string | null;
  remote_port_id: string | null;
  remote_port_desc: string | null;
  remote_sys_name: string | null;
  remote_sys_descr: string | null;
  remote_mgmt_ip: string | null;
  remote_caps: string[];
}

/** What one node of an LLDP job answered (or why it did not). */
export interface LldpNodeRead {
  hardware_id: number;
  ip_address: string;
  sys_name: string | null;
  neighbors: LldpNeighborRead[];
  error?: string | null;
}

export function stubRole(caps: readonly string[]): string {
  if (caps.includes("bridge")) return "switch";
  if (caps.includes("router")) return "router";
  if (caps.includes("wlanAccessPoint")) return "access_point";
  return "misc";
}
