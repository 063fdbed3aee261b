// POST /ip-check: which inventory objects already hold an address (and, for the ports given, which
// services already publish that port on it). Read-only, no network traffic: it answers from the rows
// that address-uses.ts finds (IPAM records that are not free, hardware, compute units, services).
import { inArray } from "drizzle-orm";
import { hostCidr, parseAddress, parseHost } from "../../../domain/cidr-math.ts";
import { services } from "../../../db/schema/index.ts";
import { defineRead } from "../../verb.ts";
import { addressUses } from "../../inventory/ipam/address-uses.ts";

export type IpCheckEntity = "hardware" | "compute_unit" | "service" | "ip_address";

export interface IpCheckInput {
  ip: string;
  ports?:
    | {
        ip?: string | null | undefined;
        port?: number | null | undefined;
        protocol?: string | undefined;
        label?: string | null | undefined;
      }[]
    | undefined;
  exclude_entity_type?: IpCheckEntity | null | undefined;
  exclude_entity_id?: number | null | undefined;
}

export interface IpConflict {
  entity_type: IpCheckEntity;
  entity_id: number;
  entity_name: string | null;
  conflicting_ip: string;
  conflicting_port: number | null;
  protocol: string | null;
}

const ENTITY_OF: Record<string, IpCheckEntity | undefined> = {
  hardware: "hardware",
  compute_unit: "compute_unit",
  service: "service",
  ipam: "ip_address",
};

const sameHost = (a: string | null | undefined, b: string) => {
  const x = parseHost(a ?? null);
  const y = parseHost(b);
  return x !== undefined && y !== undefined && x.version === y.version && x.value === y.value;
};

// Needs write:networks (editors, admins): it answers "may I use this address", asked while placing
// something on the network; a viewer has nothing to place (and the security suite refuses its POSTs).
export const ipCheck = defineRead({ scope: "write:networks" }, async (ctx, input: IpCheckInput): Promise<{ conflicts: IpConflict[] }> => {
  const excluded = (type: IpCheckEntity, id: number) => input.exclude_entity_type === type && input.exclude_entity_id === id;
  const conflicts: IpConflict[] = [];
  const seen = new Set<string>();
  const add = (c: IpConflict) => {
    const key = `${c.entity_type}:${c.entity_id}:${c.conflicting_ip}:${c.conflicting_port}:${c.protocol}`;
    if (excluded(c.entity_type, c.entity_id) || seen.has(key)) return;
    seen.add(key);
    conflicts.push(c);
  };

  const ip = parseAddress(input.ip);
  if (!ip.ok) throw new Error(ip.message); // the body schema already refused it
  for (const use of await addressUses(ctx.db, hostCidr(ip.value))) {
    const type = ENTITY_OF[use.type];
    if (!type || (use.type === "ipam" && use.status === "free")) continue;
    add({ entity_type: type, entity_id: use.id, entity_name: use.name, conflicting_ip: ip.text, conflicting_port: null, protocol: null });
  }

  // A port is taken when a service lists it for this address, or lists it without an address and the
  // service itself has this address.
  for (const p of input.ports ?? []) {
    if (p.port == null) continue;
    const portIp = p.ip ?? input.ip;
    const parsed = parseAddress(portIp);
    if (!parsed.ok) continue;
    const candidates = (await addressUses(ctx.db, hostCidr(parsed.value)))
      .filter((u) => u.type === "service" || u.type === "service_port")
      .map((u) => u.id);
    if (candidates.length === 0) continue;
    const rows = await ctx.db
      .select({ id: services.id, name: services.name, ip_address: services.ip_address, ports: services.ports })
      .from(services)
      .where(inArray(services.id, [...new Set(candidates)]));
    const protocol = p.protocol ?? "tcp";
    for (const s of rows) {
      const taken = (Array.isArray(s.ports) ? s.ports : []).some(
        (sp) =>
          sp.port === p.port &&
          (sp.protocol ?? "tcp") === protocol &&
          (sp.ip ? sameHost(sp.ip, parsed.text) : sameHost(s.ip_address, parsed.text)),
      );
      if (taken)
        add({
          entity_type: "service",
          entity_id: s.id,
          entity_name: s.name,
          conflicting_ip: parsed.text,
          conflicting_port: p.port,
          protocol,
        });
    }
  }
  return { conflicts };
});
