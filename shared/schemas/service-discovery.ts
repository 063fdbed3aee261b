// [service-discovery] the query and the answers of GET /sd/ansible (an inventory script's `--list`) and
// GET /sd/prometheus (Prometheus's http_sd format), docs/service-discovery.md and docs/adr/0482.
import * as v from "valibot";
import { PORT_PROTOCOLS, SERVICE_STATUSES } from "./services.ts";
import { IntFilter, TextFilter } from "./list-query.ts";

export const SD_HOST_KINDS = ["hardware", "vm", "container"] as const;

/**
 * A query of its own parameters only: a misspelt filter in a scrape or inventory config would otherwise
 * widen the answer silently, so an unknown parameter is a 422 naming it.
 */
function strictQuery<E extends v.ObjectEntries>(entries: E) {
  return v.strictObject(entries, (issue) =>
    issue.expected === "never" ? `Unknown query parameter; the known ones are: ${Object.keys(entries).join(", ")}.` : "Invalid query.",
  );
}

const common = {
  site_id: v.pipe(
    IntFilter,
    v.description("Only what is at this site (a VM or container is at its host's site); an unknown site is a 422."),
  ),
  environment: v.pipe(TextFilter, v.description("Only what is in the environment of this name; an unknown environment is a 422.")),
  tag: v.pipe(TextFilter, v.description("Only what carries this tag (exact name).")),
};

export const AnsibleInventoryQuery = strictQuery({
  ...common,
  kind: v.pipe(
    v.optional(v.picklist(SD_HOST_KINDS, `Must be one of: ${SD_HOST_KINDS.join(", ")}.`)),
    v.description("Only hosts of this kind."),
  ),
});

export const PrometheusTargetsQuery = strictQuery({
  ...common,
  status: v.pipe(
    v.optional(v.picklist(SERVICE_STATUSES, `Must be one of: ${SERVICE_STATUSES.join(", ")}.`)),
    v.description("Only services in this status."),
  ),
  port_label: v.pipe(TextFilter, v.description("Only the ports with this label (e.g. metrics).")),
  protocol: v.pipe(
    v.optional(v.picklist(PORT_PROTOCOLS, `Must be one of: ${PORT_PROTOCOLS.join(", ")}.`)),
    v.description("Only the ports of this protocol."),
  ),
});

const HostVar = v.union([v.string(), v.number(), v.boolean(), v.null(), v.array(v.string()), v.record(v.string(), v.unknown())]);

/** An inventory script's `--list` answer: `_meta.hostvars`, `all.children`, and one entry per group. */
export const AnsibleInventory = v.pipe(
  v.objectWithRest(
    {
      _meta: v.object({ hostvars: v.record(v.string(), v.record(v.string(), HostVar)) }),
      all: v.object({ children: v.array(v.string()) }),
    },
    v.object({ hosts: v.array(v.string()) }),
  ),
  v.description(
    "Ansible's inventory script JSON: `_meta.hostvars` (per host: `ansible_host` and the object's fields as `svc_*`), `all.children` (every group), and per group its `hosts`.",
  ),
);

/** One http_sd target group: every port of a service is one. */
export const PrometheusTargetGroup = v.object({
  targets: v.array(v.string()),
  labels: v.record(v.string(), v.string()),
});
export const PrometheusTargets = v.pipe(
  v.array(PrometheusTargetGroup),
  v.description("Prometheus http_sd: one target group per service port, `host:port` and the `__meta_svc_*` labels."),
);
