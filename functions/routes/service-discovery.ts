// [service-discovery] GET /api/v1/sd/ansible and GET /api/v1/sd/prometheus (ours, docs/adr/0482,
// docs/service-discovery.md): the inventory in the shapes Ansible's inventory scripts and Prometheus's
// http_sd_configs read, each behind a scope of its own. Answered with an ETag of the body (304 on
// If-None-Match) and `private, no-cache`: a poller revalidates every time and no shared cache keeps it.
import type { Context, Hono } from "hono";
import {
  AnsibleInventory,
  AnsibleInventoryQuery,
  PrometheusTargets,
  PrometheusTargetsQuery,
} from "../../shared/schemas/service-discovery.ts";
import { ansibleInventory } from "../../shared/verbs/service-discovery/ansible-inventory.ts";
import { prometheusTargets } from "../../shared/verbs/service-discovery/prometheus-targets.ts";
import { verbContext } from "../context.ts";
import type { AppEnv } from "../deps.ts";
import { route } from "../openapi/route.ts";
import { cachedAnswer } from "./status-pages/cached-answer.ts";

const revalidated = (c: Context<AppEnv>, value: unknown) =>
  cachedAnswer(c, JSON.stringify(value), "application/json", { "Cache-Control": "private, no-cache" });

const TOKEN_NOTE =
  "Any credential works; a token made for this alone holds only this scope (`read:*` covers it too). An unknown query parameter, site or environment is a 422. ETag, 304 on If-None-Match.";

export function serviceDiscoveryRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/sd/ansible",
      tag: "service-discovery",
      scope: ansibleInventory.scope,
      summary: "The inventory as Ansible dynamic inventory JSON (an inventory script's --list answer)",
      description: `Hosts: hardware, VMs and containers that have an IP address (\`ansible_host\`). Groups: \`type_<kind>\`, \`site_<name>\`, \`role_<role>\`, \`env_<environment>\`, \`tag_<tag>\` (names made of a-z, 0-9 and _). Host vars: the object's fields as \`svc_*\`. ${TOKEN_NOTE}`,
      query: AnsibleInventoryQuery,
      response: { schema: AnsibleInventory },
    },
    async (c, { query }) => revalidated(c, await ansibleInventory({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/sd/prometheus",
      tag: "service-discovery",
      scope: prometheusTargets.scope,
      summary: "Services' ports as Prometheus HTTP service discovery target groups (http_sd_configs)",
      description: `One target group per port of a service with an address (the port's, the service's, or its host's), labelled \`__meta_svc_*\` (service, status, category, environment, site, host, port label and protocol, tags as \`,a,b,\`). ${TOKEN_NOTE}`,
      query: PrometheusTargetsQuery,
      response: { schema: PrometheusTargets },
    },
    async (c, { query }) => revalidated(c, await prometheusTargets({ ctx: verbContext(c), input: query })),
  );
}
