// The agent capability registry (spec/catalogue.tsv, group agents): what an agent may do,
// each grant answered as {enabled, config} with the registry's defaults merged in. Requests may grant
// with a bare boolean or {enabled, config}; config merges registry default < stored < supplied; an
// unknown capability or config key, or a value out of its range, is refused with a message naming it.
import * as v from "valibot";

export const CAPABILITY_NAMES = ["host_telemetry", "remote_probe", "local_discovery"] as const;
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

export interface Grant {
  enabled: boolean;
  config: Record<string, unknown>;
}
export type Grants = Record<CapabilityName, Grant>;

const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const cidrs = v.pipe(v.array(v.pipe(v.string(), v.maxLength(64))), v.maxLength(64));
const ports = v.pipe(
  v.array(int(1, 65535)),
  v.maxLength(32, "tcp_ports takes at most 32 ports."),
  v.transform((list) => [...new Set(list)].sort((a, b) => a - b)),
);

/** Each capability's config keys, ranges and defaults. strictObject: an unknown key is refused. */
const CONFIG_SCHEMAS = {
  host_telemetry: v.strictObject({
    interval_s: v.optional(int(10, 900)),
    include_filesystems: v.optional(v.boolean()),
    include_disks: v.optional(v.boolean()),
    include_network: v.optional(v.boolean()),
    include_temperatures: v.optional(v.boolean()),
    include_virtual: v.optional(v.boolean()),
    include_docker: v.optional(v.boolean()),
  }),
  remote_probe: v.strictObject({
    max_concurrent: v.optional(int(1, 100)),
    scope_mode: v.optional(v.literal("direct_private")),
    excluded_cidrs: v.optional(cidrs),
    additional_cidrs: v.optional(cidrs),
    additional_hostnames: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(253))), v.maxLength(64))),
  }),
  local_discovery: v.strictObject({
    scope_mode: v.optional(v.literal("direct_private")),
    excluded_cidrs: v.optional(cidrs),
    additional_cidrs: v.optional(cidrs),
    max_addresses_per_job: v.optional(int(1, 4096)),
    max_concurrent_hosts: v.optional(int(1, 256)),
    tcp_ports: v.optional(ports),
    host_timeout_ms: v.optional(int(100, 10_000)),
    job_timeout_seconds: v.optional(int(30, 1800)),
    auto_discovery_paused: v.optional(v.boolean()),
  }),
} as const;

export const CAPABILITY_DEFAULTS: Readonly<Grants> = {
  host_telemetry: {
    enabled: true,
    config: {
      interval_s: 30,
      include_filesystems: true,
      include_disks: true,
      include_network: true,
      include_temperatures: true,
      include_virtual: false,
      include_docker: false,
    },
  },
  remote_probe: {
    enabled: true,
    config: { max_concurrent: 20, scope_mode: "direct_private", excluded_cidrs: [], additional_cidrs: [], additional_hostnames: [] },
  },
  local_discovery: {
    enabled: true,
    config: {
      scope_mode: "direct_private",
      excluded_cidrs: [],
      additional_cidrs: [],
      max_addresses_per_job: 1024,
      max_concurrent_hosts: 64,
      tcp_ports: [22, 53, 80, 443, 445, 3389, 8000, 8080, 8443],
      host_timeout_ms: 1500,
      job_timeout_seconds: 300,
      auto_discovery_paused: false,
    },
  },
};

export function isCapabilityName(name: string): name is CapabilityName {
  return (CAPABILITY_NAMES as readonly string[]).includes(name);
}

/** A grant as a request may give it: `true`, `false`, or `{enabled?, config?}`. */
export const GrantInputSchema = v.union([
  v.boolean(),
  v.strictObject({ enabled: v.optional(v.boolean()), config: v.optional(v.record(v.string(), v.unknown())) }),
]);
export type GrantInput = v.InferOutput<typeof GrantInputSchema>;

export interface GrantIssue {
  /** Path below the capabilities object, e.g. ["remote_probe", "config", "max_concurrent"]. */
  path: string[];
  message: string;
}

/** Every capability with defaults merged under what is stored (unknown stored names are dropped). */
export function effectiveGrants(stored: Record<string, Partial<Grant> | undefined> | null | undefined): Grants {
  const out = {} as Grants;
  for (const name of CAPABILITY_NAMES) {
    const s = stored?.[name];
    out[name] = {
      enabled: typeof s?.enabled === "boolean" ? s.enabled : CAPABILITY_DEFAULTS[name].enabled,
      config: { ...CAPABILITY_DEFAULTS[name].config, ...(s?.config ?? {}) },
    };
  }
  return out;
}

/**
 * Applies `changes` (only the names given change) over `stored`; answers the whole new grant set, or
 * the issues that refuse the change.
 */
export function applyGrantChanges(
  stored: Record<string, Partial<Grant> | undefined> | null | undefined,
  changes: Record<string, unknown>,
): { grants: Grants } | { issues: GrantIssue[] } {
  const grants = effectiveGrants(stored);
  const issues: GrantIssue[] = [];
  for (const [name, raw] of Object.entries(changes)) {
    if (!isCapabilityName(name)) {
      issues.push({ path: [name], message: `Unknown capability ${name}; known: ${CAPABILITY_NAMES.join(", ")}.` });
      continue;
    }
    const input = v.safeParse(GrantInputSchema, raw);
    if (!input.success) {
      issues.push({ path: [name], message: "A grant is true, false, or {enabled, config}." });
      continue;
    }
    if (typeof input.output === "boolean") {
      grants[name] = { ...grants[name], enabled: input.output };
      continue;
    }
    const config = v.safeParse(CONFIG_SCHEMAS[name], input.output.config ?? {});
    if (!config.success) {
      for (const issue of config.issues) {
        const key = issue.path?.map((p) => String(p.key)) ?? [];
        const message =
          issue.type === "strict_object"
            ? `Unknown config key ${key.join(".")} for ${name}.`
            : `${name}.config.${key.join(".")}: ${issue.message}`;
        issues.push({ path: [name, "config", ...key], message });
      }
      continue;
    }
    const given = Object.fromEntries(Object.entries(config.output).filter(([, value]) => value !== undefined));
    grants[name] = { enabled: input.output.enabled ?? grants[name].enabled, config: { ...grants[name].config, ...given } };
  }
  return issues.length ? { issues } : { grants };
}

/** `capabilities.set` on the wire: objects for capability_schema >= 2, bare booleans before it. */
export function grantsOnWire(grants: Grants, capabilitySchema: number): Record<string, Grant | boolean> {
  if (capabilitySchema >= 2) return grants;
  return Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, grants[n].enabled]));
}

/** Which grant a frame from the agent needs (the grant gate); undefined for frames every agent may send. */
export const FRAME_GRANTS: Readonly<Record<string, CapabilityName>> = {
  "telemetry.host": "host_telemetry",
  "probe.result": "remote_probe",
  "discovery.finding": "local_discovery",
};
