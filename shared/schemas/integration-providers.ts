// [integrations] provider configs (/integrations/{provider}/config*, spec/catalogue.tsv, group integrations) and the
// hypervisor integration (/integrations/hv*, 5.C): bodies, answers, path parameters.
import * as v from "valibot";
import { IdParam, Name, patchBody, writeBody } from "./fields.ts";
import { SyncInterval } from "./integrations.ts";

const CREDENTIAL_TYPES = ["snmp", "ssh", "ipmi", "smtp", "api_key", "proxmox_api"] as const;
const Url = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(2000));
const Secret = v.pipe(v.string(), v.maxLength(16_384));
const CaPem = v.nullable(v.pipe(v.string(), v.maxLength(65_536)));
const ExtraConfig = v.pipe(
  v.record(v.string(), v.unknown()),
  v.check((o) => JSON.stringify(o).length <= 16_384, "Must be at most 16 KiB as JSON."),
);
const READ_ONLY = [
  "type",
  "credential_id",
  "credential_set",
  "api_token_set",
  "ca_cert_set",
  "cluster_name",
  "last_sync_at",
  "last_sync_status",
  "last_sync_error",
];

const providerEntries = {
  name: Name,
  config_url: Url,
  credential_type: v.optional(v.picklist(CREDENTIAL_TYPES)),
  credential_value: v.optional(v.nullable(Secret)),
  auto_sync: v.optional(v.boolean()),
  sync_interval_s: v.optional(SyncInterval),
  verify_ssl: v.optional(v.boolean()),
  ca_cert: v.optional(CaPem),
  extra_config: v.optional(ExtraConfig),
};
export const ProviderConfigCreate = writeBody(providerEntries, READ_ONLY);
export const ProviderConfigUpdate = patchBody(providerEntries, READ_ONLY);

/** The provider path segment: checked in the handler, so a wrong one is the reference's 400, not a 422. */
export const ProviderParams = v.object({ provider: v.string() });
export const ProviderConfigParams = v.object({ provider: v.string(), ...IdParam("config_id").entries });

export const ProviderConfigOut = v.object({
  id: v.number(),
  type: v.string(),
  name: v.string(),
  config_url: v.string(),
  credential_type: v.string(),
  credential_id: v.null(),
  credential_set: v.boolean(),
  cluster_name: v.nullable(v.string()),
  auto_sync: v.boolean(),
  sync_interval_s: v.number(),
  verify_ssl: v.boolean(),
  ca_cert_set: v.boolean(),
  last_sync_at: v.nullable(v.string()),
  last_sync_status: v.nullable(v.string()),
  last_sync_error: v.nullable(v.string()),
  extra_config: v.record(v.string(), v.unknown()),
  created_at: v.string(),
  updated_at: v.string(),
});
export const ProviderConfigList = v.array(ProviderConfigOut);
export const ProviderTestOut = v.object({ status: v.picklist(["ok", "error"]), message: v.string(), latency_ms: v.number() });

// The hypervisor (5.C): one token string `user@realm!tokenid=secret`, parsed on use.
const hvEntries = {
  name: Name,
  config_url: Url,
  api_token: v.pipe(v.string(), v.minLength(1, "Must not be empty."), v.maxLength(1024)),
  auto_sync: v.optional(v.boolean()),
  sync_interval_s: v.optional(SyncInterval),
  verify_ssl: v.optional(v.boolean()),
  ca_cert: v.optional(CaPem),
};
export const HvConfigCreate = writeBody(hvEntries, READ_ONLY);
export const HvConfigUpdate = patchBody(hvEntries, READ_ONLY);
export const HvParams = IdParam("integration_id");

export const HvConfigOut = v.object({
  id: v.number(),
  type: v.literal("hv"),
  name: v.string(),
  config_url: v.string(),
  cluster_name: v.nullable(v.string()),
  auto_sync: v.boolean(),
  sync_interval_s: v.number(),
  last_sync_at: v.nullable(v.string()),
  last_sync_status: v.nullable(v.string()),
  last_sync_error: v.nullable(v.string()),
  verify_ssl: v.boolean(),
  ca_cert_set: v.boolean(),
  api_token_set: v.boolean(),
  created_at: v.string(),
  updated_at: v.string(),
});
export const HvConfigList = v.array(HvConfigOut);
export const OkOut = v.object({ ok: v.boolean() });

export const HvTestOut = v.object({
  ok: v.boolean(),
  version: v.nullable(v.string()),
  release: v.nullable(v.string()),
  cluster_name: v.nullable(v.string()),
  error: v.nullable(v.string()),
});

export const HvStatusOut = v.object({
  integration_id: v.number(),
  last_sync_at: v.nullable(v.string()),
  last_sync_status: v.nullable(v.string()),
  cluster_name: v.nullable(v.string()),
  nodes_count: v.number(),
  vms_count: v.number(),
  cts_count: v.number(),
  storage_count: v.number(),
});

export const HvDiscoverOut = v.object({
  ok: v.boolean(),
  cluster_name: v.nullable(v.string()),
  nodes_imported: v.number(),
  vms_imported: v.number(),
  cts_imported: v.number(),
  networks_imported: v.number(),
  storage_imported: v.number(),
  results_queued: v.number(),
  review_job_id: v.null(),
  errors: v.array(v.string()),
  run_id: v.nullable(v.number()),
  rows_written: v.number(),
  vanished: v.array(v.record(v.string(), v.unknown())),
});

export const OverviewQuery = v.object({
  integration_id: v.pipe(
    v.string(),
    v.regex(/^\d{1,10}$/, "Must be an integer id."),
    v.transform(Number),
    v.minValue(1, "Must be a positive integer id."),
    v.maxValue(2_147_483_647, "Must be at most 2147483647."),
  ),
});
const Point = v.object({ time: v.number(), value: v.number() });
const Series = v.record(v.string(), v.array(Point));
export const ClusterOverviewOut = v.object({
  cluster: v.object({
    name: v.nullable(v.string()),
    quorum: v.boolean(),
    nodes_online: v.number(),
    nodes_total: v.number(),
    vms: v.number(),
    lxcs: v.number(),
    uptime: v.number(),
  }),
  problems: v.array(v.object({ time: v.number(), severity: v.string(), host: v.string(), problem: v.string(), status: v.string() })),
  time_series: v.object({ cpu: Series, memory: Series, network_in: Series, network_out: Series }),
  storage: v.array(v.object({ name: v.string(), used_gb: v.number(), total_gb: v.number(), content: v.string() })),
});

export const GuestActionParams = v.object({
  ...IdParam("integration_id").entries,
  node: v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/, "Must be a Proxmox node name.")),
  vm_type: v.string(),
  vmid: v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, "Must be a guest id (100..999999999)."),
    v.transform(Number),
    v.minValue(100, "Must be at least 100."),
  ),
});
export const GuestActionBody = writeBody({
  action: v.picklist(
    ["start", "stop", "reboot", "shutdown", "reset", "suspend", "resume"],
    "Must be one of start, stop, reboot, shutdown, reset, suspend, resume.",
  ),
});
export const GuestActionOut = v.object({
  ok: v.boolean(),
  upid: v.optional(v.nullable(v.string())),
  error: v.optional(v.nullable(v.string())),
});
