// [hypervisor integration] /integrations/hv* (spec/catalogue.tsv, group hypervisor integration; the reference's "proxmox"
// segment is "hv"): the Proxmox VE configs, test, discover, status, the cluster overview and the guests'
// power actions. Fixed paths (cluster-overview) are registered before /hv/{integration_id}.
import type { Hono } from "hono";
import {
  ClusterOverviewOut,
  GuestActionBody,
  HvDiscoverOut,
  GuestActionOut,
  GuestActionParams,
  HvConfigCreate,
  HvConfigList,
  HvConfigOut,
  HvConfigUpdate,
  HvParams,
  HvStatusOut,
  HvTestOut,
  OkOut,
  OverviewQuery,
} from "../../../shared/schemas/integration-providers.ts";
import { discoverHv } from "../../../shared/verbs/integrations/hv/discover.ts";
import { clusterOverview } from "../../../shared/verbs/integrations/hv/cluster-overview.ts";
import { guestActionName, requireGuestType, runGuestAction } from "../../../shared/verbs/integrations/hv/guest-action.ts";
import { hvStatus } from "../../../shared/verbs/integrations/hv/hv-status.ts";
import { testHv } from "../../../shared/verbs/integrations/hv/test-hv.ts";
import { WRITE_INTEGRATIONS } from "../../../shared/verbs/integrations/scopes.ts";
import { presentHvConfig } from "../../../shared/verbs/integrations/providers/provider-config.ts";
import { getConfig, listConfigs } from "../../../shared/verbs/integrations/providers/read-configs.ts";
import {
  type ConfigFields,
  createConfig,
  deleteConfig,
  HV_NOT_FOUND,
  updateConfig,
} from "../../../shared/verbs/integrations/providers/write-configs.ts";
import { confirmationDoc, confirmed } from "../../confirmation.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/integrations/hv";
const TAG = "hypervisor integration" as const;

const WRITE_NOTE = [
  "`config_url` https://host:8006 (https:// and port 8006 added when left out), checked against the outbound (SSRF) policy.",
  "`api_token` is one string `user@realm!tokenid=secret` (422 naming the field otherwise), sealed by the vault and never returned (`api_token_set`).",
  "`verify_ssl` default true; `ca_cert` a PEM CA to trust (a homelab's own). `sync_interval_s` 30..86400 (default 300).",
].join(" ");

/** The hypervisor body in the provider configs' terms: the token is the config's credential. */
function hvFields(body: { api_token?: string } & Omit<ConfigFields, "credential_value" | "credential_type">): ConfigFields {
  const { api_token, ...rest } = body;
  return { ...rest, ...(api_token !== undefined && { credential_value: api_token, credential_type: "proxmox_api" }) };
}

export function hvRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: TAG,
      scope: listConfigs.scope,
      response: { schema: HvConfigList },
      summary: "List hypervisor (Proxmox VE) configs",
      description: "An array, by id.",
    },
    async (c, { reply }) => reply((await listConfigs({ ctx: verbContext(c), input: { provider: "hv" } })).map(presentHvConfig)),
  );

  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: TAG,
      scope: createConfig.scope,
      body: HvConfigCreate,
      response: { schema: HvConfigOut },
      errors: [503],
      summary: "Add a hypervisor (Proxmox VE)",
      description: `200 as the reference answers. ${WRITE_NOTE}`,
    },
    async (c, { body, reply }) =>
      reply(
        presentHvConfig(
          await createConfig({ ctx: verbContext(c), input: { provider: "hv", fields: hvFields(body), credentialField: "api_token" } }),
        ),
      ),
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/cluster-overview`,
      tag: TAG,
      scope: clusterOverview.scope,
      query: OverviewQuery,
      response: { schema: ClusterOverviewOut },
      errors: [400],
      summary: "Cluster overview",
      description:
        "Quorum, nodes online, guests, problems (offline nodes, lost quorum, storages 90% full, failed tasks), an hour of per-node cpu/memory (percent) and network (bytes/s) series, and the storages (a shared one once). Cached 90 s per config in each API process; a changed config is asked afresh. A cluster that cannot be reached is a 400 with the reason.",
    },
    async (c, { query, reply }) => {
      return reply(await clusterOverview({ ctx: verbContext(c), input: { id: query.integration_id } }));
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:integration_id`,
      tag: TAG,
      scope: getConfig.scope,
      params: HvParams,
      response: { schema: HvConfigOut },
      summary: "One hypervisor config",
      description: '404 "Integration not found".',
    },
    async (c, { params, reply }) =>
      reply(
        presentHvConfig(
          await getConfig({ ctx: verbContext(c), input: { provider: "hv", id: params.integration_id, notFound: HV_NOT_FOUND } }),
        ),
      ),
  );

  route(
    app,
    {
      method: "put",
      path: `${BASE}/:integration_id`,
      tag: TAG,
      scope: updateConfig.scope,
      params: HvParams,
      body: HvConfigUpdate,
      response: { schema: HvConfigOut },
      errors: [503],
      summary: "Change a hypervisor config",
      description: `Only the fields given change; leaving api_token out keeps it. ${WRITE_NOTE}`,
    },
    async (c, { params, body, reply }) =>
      reply(
        presentHvConfig(
          await updateConfig({
            ctx: verbContext(c),
            input: {
              provider: "hv",
              id: params.integration_id,
              fields: hvFields(body),
              credentialField: "api_token",
              notFound: HV_NOT_FOUND,
            },
          }),
        ),
      ),
  );

  route(
    app,
    {
      method: "delete",
      path: `${BASE}/:integration_id`,
      tag: TAG,
      scope: deleteConfig.scope,
      params: HvParams,
      response: { schema: OkOut },
      summary: "Remove a hypervisor config",
      description:
        'Answers {"ok": true}. The inventory rows it imported stay; their external_refs (source `hv:<id>`) go, so they no longer follow the cluster. Its discover runs stay, without a config.',
    },
    async (c, { params, reply }) => {
      await deleteConfig({ ctx: verbContext(c), input: { provider: "hv", id: params.integration_id, notFound: HV_NOT_FOUND } });
      return reply({ ok: true });
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/:integration_id/test`,
      tag: TAG,
      scope: testHv.scope,
      params: HvParams,
      response: { schema: HvTestOut },
      errors: [400],
      summary: "Test a hypervisor config",
      description:
        "The Proxmox VE version, release and cluster name; a failure (refused token, untrusted certificate, timeout, policy) is {ok: false, error}. A stored token that is not user@realm!tokenid=secret is a 400.",
    },
    async (c, { params, reply }) => {
      return reply(await testHv({ ctx: verbContext(c), input: { id: params.integration_id } }));
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/:integration_id/discover`,
      tag: TAG,
      scope: WRITE_INTEGRATIONS,
      params: HvParams,
      response: { schema: HvDiscoverOut },
      errors: [400, 409],
      summary: "Discover the cluster into the inventory",
      description:
        "Reads nodes, VMs, containers, bridges and storages, then writes what changed in one audited transaction matched by the Proxmox ids (external_refs `hv:<id>`), and reports what vanished. Recorded as a run at /discovery/proxmox-runs (`run_id`). A cluster that cannot be read is {ok: false, errors} with 200 and changes nothing; a malformed stored token is a 400.",
    },
    async (c, { params, reply }) => {
      const ctx = verbContext(c);
      const out = await discoverHv(ctx, params.integration_id, "manual", ctx.actor?.email ?? null);
      return reply({ ...out, vanished: out.vanished.map((v) => ({ ...v })) });
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:integration_id/status`,
      tag: TAG,
      scope: hvStatus.scope,
      params: HvParams,
      response: { schema: HvStatusOut },
      summary: "Hypervisor sync status",
      description: "The last sync and the counts of the newest completed discover run.",
    },
    async (c, { params, reply }) => reply(await hvStatus({ ctx: verbContext(c), input: { id: params.integration_id } })),
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/:integration_id/nodes/:node/:vm_type/:vmid/action`,
      tag: TAG,
      scope: runGuestAction.scope,
      params: GuestActionParams,
      body: GuestActionBody,
      response: { schema: GuestActionOut },
      errors: [400, 409, 428],
      summary: "Power action on a guest",
      description: `vm_type qemu or lxc (else 400); action start, stop, reboot, shutdown, reset, suspend or resume (else 422). ${confirmationDoc({ action: "hv-guest-<action>" })} Answers {ok: true, upid} or, when Proxmox refuses or cannot be reached, {ok: false, error} with 200; audited either way.`,
    },
    async (c, { params, body, reply }) => {
      const vmType = requireGuestType(params.vm_type);
      return confirmed(c, { action: guestActionName(body.action) }, reply, (ctx) =>
        runGuestAction({ ctx, input: { id: params.integration_id, node: params.node, vmType, vmid: params.vmid, action: body.action } }),
      );
    },
  );
}
