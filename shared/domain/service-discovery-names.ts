// How inventory names and addresses become what Ansible and Prometheus accept (docs/adr/0482): group
// names of Ansible's rules ([A-Za-z_][A-Za-z0-9_]*), a host name that is unique in one inventory, and
// an address without its prefix length, bracketed for a `host:port` when it is IPv6.
import { slugText } from "./slug-text.ts";

/**
 * `site`, "Berlin DC-1" -> "site_berlin_dc_1". Accents dropped, every run of other characters one `_`;
 * null when nothing of a-z0-9 is left (such a value makes no group rather than an unreadable one).
 */
export function ansibleGroup(prefix: string, value: string): string | null {
  const slug = slugText(value, 100).replaceAll("-", "_");
  return slug === "" ? null : `${prefix}_${slug}`;
}

/** What a name may be used as a host name as it is: no spaces, quotes or other shell and INI trouble. */
const PLAIN_HOST = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
/** The names the fallback takes: an object's own name of this shape is never used as is. */
const FALLBACK = /^(hardware|vm|container)_\d+$/;

/**
 * The inventory host name of each object: its own name when it is plain and no other host has it,
 * otherwise `<kind>_<id>` (stable, and the name stays in `svc_name`). `objects` in any order.
 */
export function ansibleHostNames(objects: readonly { kind: string; id: number; name: string }[]): string[] {
  const seen = new Map<string, number>();
  for (const o of objects) seen.set(o.name, (seen.get(o.name) ?? 0) + 1);
  return objects.map((o) => (PLAIN_HOST.test(o.name) && !FALLBACK.test(o.name) && seen.get(o.name) === 1 ? o.name : `${o.kind}_${o.id}`));
}

/** "10.0.0.5/24" -> "10.0.0.5": the inventory's address fields may carry a prefix length. Empty -> null. */
export function bareAddress(ip: string | null | undefined): string | null {
  const bare = (ip ?? "").trim().replace(/\/\d{1,3}$/, "");
  return bare === "" ? null : bare;
}

/** "10.0.0.5", 9100 -> "10.0.0.5:9100"; "fd00::5", 9100 -> "[fd00::5]:9100". */
export function hostPort(address: string, port: number): string {
  return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
}

/** Tags as one label value, Consul's way: `,a,b,` so a relabel regex `.*,a,.*` matches a whole tag. */
export function tagsLabel(tags: readonly string[]): string {
  return tags.length === 0 ? "" : `,${[...tags].sort().join(",")},`;
}
