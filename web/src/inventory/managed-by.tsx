// "Managed by a lab file": on a record's page, administrators see that configuration as code
// (docs/cli.md) made or adopted it (GET /config/objects), so a change made here is overwritten by the
// next `lab apply` of that file. Others see nothing: the ownership rows are an administrator's read.
import { api, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import type { Group, GroupKey } from "./types.ts";

/** Each group's kind in lab files (the config kinds of shared/verbs/config/config-kinds.ts). */
const LAB_KINDS: Record<GroupKey, string> = {
  hardware: "hardware",
  compute: "compute_units",
  services: "services",
  networks: "networks",
  storage: "storage",
  clusters: "hardware_clusters",
  external: "external_nodes",
  misc: "misc_items",
  sites: "sites",
  vlans: "vlans",
  ipam: "ip_addresses",
  environments: "environments",
  categories: "categories",
  racks: "racks",
  prefixes: "prefixes",
  vrfs: "vrfs",
};

export function ManagedBy({ group, id }: { group: Group; id: string }) {
  const t = useT();
  const admin = useSession().can("admin:*");
  const owners = useLoad(
    async () => {
      const query = { kind: LAB_KINDS[group.key], object_id: id, limit: "5" };
      return (await ok(api.GET("/api/v1/config/objects", { params: { query } }))).items;
    },
    [group.key, id],
    { wait: !admin },
  );
  const first = owners.data?.[0];
  if (!admin || !first) return null;
  return <Notice kind="info">{t("inventory:detail.managedBy", { owner: first.owner, key: first.key })}</Notice>;
}
