// [integrations] provider configs: /integrations/{provider}/config* for the providers hv (Proxmox VE)
// and docker (spec/catalogue.tsv, group integrations). A provider outside those two is the reference's 400.
import type { Hono } from "hono";
import { Detail } from "../../../shared/schemas/auth.ts";
import {
  ProviderConfigCreate,
  ProviderConfigList,
  ProviderConfigOut,
  ProviderConfigParams,
  ProviderConfigUpdate,
  ProviderParams,
  ProviderTestOut,
} from "../../../shared/schemas/integration-providers.ts";
import { presentProviderConfig, requireProvider } from "../../../shared/verbs/integrations/providers/provider-config.ts";
import { getConfig, listConfigs } from "../../../shared/verbs/integrations/providers/read-configs.ts";
import { testConfig } from "../../../shared/verbs/integrations/providers/test-config.ts";
import { createConfig, deleteConfig, updateConfig } from "../../../shared/verbs/integrations/providers/write-configs.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const BASE = "/api/v1/integrations/:provider/config";

const WRITE_NOTE = [
  "`provider` is hv or docker (else 400). `config_url`: hv an http(s) URL; docker unix:///path/to/docker.sock, tcp://host:port (TLS unless `extra_config.tls` is false) or https://; checked against the outbound (SSRF) policy, 422 naming the field.",
  "`credential_value` is sealed by the vault and never returned (`credential_set`); null clears it, leaving it out keeps it. `ca_cert`: PEM certificates trusted for this endpoint.",
  "`sync_interval_s` 30..86400 (default 300): the sidecar syncs each config with `auto_sync` that often.",
].join(" ");

export function providersRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "integrations",
      scope: listConfigs.scope,
      params: ProviderParams,
      response: { schema: ProviderConfigList },
      errors: [400],
      summary: "List a provider's configs",
      description: "An array, by id.",
    },
    async (c, { params, reply }) =>
      reply((await listConfigs({ ctx: verbContext(c), input: { provider: requireProvider(params.provider) } })).map(presentProviderConfig)),
  );

  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: "integrations",
      scope: createConfig.scope,
      params: ProviderParams,
      body: ProviderConfigCreate,
      response: { schema: ProviderConfigOut },
      errors: [400, 503],
      summary: "Create a provider config",
      description: `200 as the reference answers. ${WRITE_NOTE}`,
    },
    async (c, { params, body, reply }) => {
      const provider = requireProvider(params.provider);
      return reply(presentProviderConfig(await createConfig({ ctx: verbContext(c), input: { provider, fields: body } })));
    },
  );

  route(
    app,
    {
      method: "get",
      path: `${BASE}/:config_id`,
      tag: "integrations",
      scope: getConfig.scope,
      params: ProviderConfigParams,
      response: { schema: ProviderConfigOut },
      errors: [400],
      summary: "One provider config",
      description: '404 "Integration config not found" (also for another provider\'s id).',
    },
    async (c, { params, reply }) =>
      reply(
        presentProviderConfig(
          await getConfig({ ctx: verbContext(c), input: { provider: requireProvider(params.provider), id: params.config_id } }),
        ),
      ),
  );

  route(
    app,
    {
      method: "put",
      path: `${BASE}/:config_id`,
      tag: "integrations",
      scope: updateConfig.scope,
      params: ProviderConfigParams,
      body: ProviderConfigUpdate,
      response: { schema: ProviderConfigOut },
      errors: [400, 503],
      summary: "Change a provider config",
      description: `Only the fields given change. ${WRITE_NOTE}`,
    },
    async (c, { params, body, reply }) => {
      const provider = requireProvider(params.provider);
      return reply(
        presentProviderConfig(await updateConfig({ ctx: verbContext(c), input: { provider, id: params.config_id, fields: body } })),
      );
    },
  );

  route(
    app,
    {
      method: "delete",
      path: `${BASE}/:config_id`,
      tag: "integrations",
      scope: deleteConfig.scope,
      params: ProviderConfigParams,
      response: { schema: Detail },
      errors: [400],
      summary: "Delete a provider config",
      description: 'Answers {"detail": "deleted"}. The inventory rows it imported stay; a hypervisor config\'s external_refs go with it.',
    },
    async (c, { params, reply }) => {
      await deleteConfig({ ctx: verbContext(c), input: { provider: requireProvider(params.provider), id: params.config_id } });
      return reply({ detail: "deleted" });
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/:config_id/test`,
      tag: "integrations",
      scope: testConfig.scope,
      params: ProviderConfigParams,
      response: { schema: ProviderTestOut },
      errors: [400],
      summary: "Test a provider config",
      description:
        "One round trip with the stored config (docker: GET /version; hv: the Proxmox VE version), answered with 200 as {status: ok|error, message, latency_ms}; a failure's message never carries the credential or the provider's answer.",
    },
    async (c, { params, reply }) => {
      return reply(await testConfig({ ctx: verbContext(c), input: { provider: requireProvider(params.provider), id: params.config_id } }));
    },
  );
}
