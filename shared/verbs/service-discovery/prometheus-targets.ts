// GET /sd/prometheus: services' ports as Prometheus http_sd target groups (docs/adr/0482,
// docs/service-discovery.md). One group per port of a service that has an address: the port's own,
// else the service's, else its VM's or container's, else its hardware's. Labels are `__meta_svc_*`, as
// Prometheus's own discovery mechanisms name theirs: the operator keeps what they want by relabelling
// (one `labelmap` keeps them all), and nothing of ours collides with their job's labels.
import { sql } from "drizzle-orm";
import { PROMETHEUS_SD_SCOPE } from "../../auth/scopes.ts";
import { queryRows } from "../../db/database.ts";
import { bareAddress, hostPort, tagsLabel } from "../../domain/service-discovery-names.ts";
import { defineRead } from "../verb.ts";
import { allOf, checkSdFilters, type SdFilters } from "./filters.ts";

export interface PrometheusTargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

export interface PrometheusFilters extends SdFilters {
  status?: string | undefined;
  port_label?: string | undefined;
  protocol?: string | undefined;
}

interface ServiceRow {
  id: number;
  name: string;
  slug: string;
  status: string;
  ip_address: string | null;
  ports: { ip?: string | null; port: number; protocol?: string; label?: string | null }[];
  tags: string[];
  environment: string | null;
  category: string | null;
  compute_id: number | null;
  compute_name: string | null;
  compute_kind: string | null;
  compute_ip: string | null;
  hardware_id: number | null;
  hardware_name: string | null;
  hardware_ip: string | null;
  site_id: number | null;
  site: string | null;
}

/** Where the service runs: its VM or container when it has one, else its hardware. */
function hostOf(r: ServiceRow): { kind: string; id: number | null; name: string | null; ip: string | null } {
  if (r.compute_id !== null) return { kind: r.compute_kind ?? "", id: r.compute_id, name: r.compute_name, ip: r.compute_ip };
  if (r.hardware_id !== null) return { kind: "hardware", id: r.hardware_id, name: r.hardware_name, ip: r.hardware_ip };
  return { kind: "", id: null, name: null, ip: null };
}

const text = (value: string | number | null | undefined) => (value == null ? "" : String(value));

export const prometheusTargets = defineRead(
  { scope: PROMETHEUS_SD_SCOPE },
  async (ctx, f: PrometheusFilters): Promise<PrometheusTargetGroup[]> => {
    const { environmentId } = await checkSdFilters(ctx, f);
    const conditions = allOf([
      sql`jsonb_array_length(s.ports) > 0`,
      f.site_id !== undefined && sql`st.id = ${f.site_id}`,
      // A service names its environment by reference, or (older rows) by name only.
      environmentId !== null &&
        sql`(s.environment_id = ${environmentId} or (s.environment_id is null and s.environment = ${f.environment ?? null}))`,
      f.tag !== undefined && sql`${f.tag} = any(s.tags)`,
      f.status !== undefined && sql`s.status = ${f.status}`,
    ]);
    const rows = await queryRows<ServiceRow>(
      ctx.db,
      sql`select s.id, s.name, s.slug, s.status, s.ip_address, s.ports, s.tags,
                 coalesce(e.name, s.environment) as environment, cat.name as category,
                 c.id as compute_id, c.name as compute_name, c.kind as compute_kind, c.ip_address as compute_ip,
                 h.id as hardware_id, h.name as hardware_name, h.ip_address as hardware_ip, st.id as site_id, st.name as site
          from services s
          left join compute_units c on c.id = s.compute_id
          left join hardware h on h.id = coalesce(s.hardware_id, c.hardware_id)
          left join sites st on st.id = h.site_id
          left join environments e on e.id = s.environment_id
          left join categories cat on cat.id = s.category_id
          where ${conditions}
          order by s.name, s.id`,
    );
    const groups: PrometheusTargetGroup[] = [];
    for (const r of rows) {
      const host = hostOf(r);
      const ports = [...r.ports].sort((a, b) => a.port - b.port);
      for (const p of ports) {
        const protocol = p.protocol ?? "tcp";
        if (f.port_label !== undefined && p.label !== f.port_label) continue;
        if (f.protocol !== undefined && protocol !== f.protocol) continue;
        const address = bareAddress(p.ip) ?? bareAddress(r.ip_address) ?? bareAddress(host.ip);
        if (address === null) continue;
        groups.push({
          targets: [hostPort(address, p.port)],
          labels: {
            __meta_svc_service_id: text(r.id),
            __meta_svc_service_name: r.name,
            __meta_svc_service_slug: r.slug,
            __meta_svc_service_status: r.status,
            __meta_svc_category: text(r.category),
            __meta_svc_environment: text(r.environment),
            __meta_svc_site: text(r.site),
            __meta_svc_site_id: text(r.site_id),
            __meta_svc_host_kind: host.kind,
            __meta_svc_host_id: text(host.id),
            __meta_svc_host_name: text(host.name),
            __meta_svc_port: text(p.port),
            __meta_svc_port_label: text(p.label),
            __meta_svc_port_protocol: protocol,
            __meta_svc_tags: tagsLabel(r.tags),
          },
        });
      }
    }
    return groups;
  },
);
