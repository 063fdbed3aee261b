// Monitors in a lab file (docs/cli.md, docs/adr/0507): the API's monitor fields, with `target` naming
// the watched object as `<kind>/<key>` (hardware/nas-01, services/shop) and `group` the key of a group
// monitor. Probe and vantage agents are left out: an agent's id belongs to one server, not to a lab.
// Secrets (each check type's secret keys and http's credential headers in `config`) are given as
// ${env:NAME}; the diff compares them with the opened stored ones and never answers them.
import { inArray } from "drizzle-orm";
import { monitors } from "../../../db/schema/index.ts";
import { CHECK_TYPES, isCheckType, secretKeysOf } from "../../../domain/monitors/check-types.ts";
import { isSecretHeader, SECRET_HEADERS } from "../../../domain/monitors/config.ts";
import { MonitorCreateBody, MonitorPatchBody, type TargetType } from "../../../schemas/monitors.ts";
import { createMonitor } from "../../monitors/create-monitor.ts";
import { deleteMonitor } from "../../monitors/lifecycle.ts";
import { patchMonitor } from "../../monitors/patch-monitor.ts";
import { MASK, openSecrets } from "../../monitors/secrets.ts";
import { vaultOf } from "../../verb-context.ts";
import { type ApiConfigKind, type NamedKey, NOT_YET, type Row, splitRef } from "../api-kind.ts";

/** The lab file's kind of each target type. */
const TARGET_KIND: Record<TargetType, string> = {
  hardware: "hardware",
  compute_unit: "compute_units",
  external_node: "external_nodes",
  service: "services",
  ip: "ip_addresses",
};
const TYPE_OF_KIND = new Map(Object.entries(TARGET_KIND).map(([type, kind]) => [kind, type as TargetType]));

const ALL_SECRET_KEYS = [...new Set(CHECK_TYPES.flatMap((t) => secretKeysOf(t)))];
const int = (minimum: number, maximum: number) => ({ type: "integer", minimum, maximum });

/** The stored config in the file's terms: secrets opened (or `true` where set), no `<key>_set` flags. */
function configView(checkType: string, config: Row, opened: Row | null, secrets: boolean): Row {
  const out: Row = { ...config };
  if (!isCheckType(checkType)) return out;
  for (const key of secretKeysOf(checkType))
    if (out[key] === MASK) out[key] = secrets ? ((opened?.[key] as string | undefined) ?? MASK) : true;
  const headers = out.headers as Record<string, string> | undefined;
  if (headers) {
    const openedHeaders = (opened?.headers ?? {}) as Record<string, string>;
    out.headers = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        isSecretHeader(name) && value === MASK ? (secrets ? (openedHeaders[name] ?? MASK) : true) : value,
      ]),
    );
  }
  return out;
}

export const monitorsKind: ApiConfigKind = {
  key: "monitors",
  table: "monitors",
  nameField: "name",
  schema: {
    name: { type: "string", minLength: 1, maxLength: 255 },
    check_type: { enum: [...CHECK_TYPES] },
    host: { type: "string", maxLength: 255 },
    config: {
      type: "object",
      description: `The check type's settings; secrets as \${env:NAME}.`,
      properties: {
        ...Object.fromEntries(ALL_SECRET_KEYS.map((k) => [k, { type: ["string", "null"], "x-secret": true }])),
        headers: { type: "object", additionalProperties: { type: "string" }, "x-secret-names": [...SECRET_HEADERS] },
      },
    },
    interval_secs: int(10, 86_400),
    max_retries: int(0, 10),
    retry_interval_secs: { ...int(5, 86_400), type: ["integer", "null"] },
    enabled: { type: "boolean" },
    target: {
      type: ["string", "null"],
      description: "The watched object as <kind>/<key>: hardware, compute_units, external_nodes, services or ip_addresses.",
      "x-ref-any": Object.values(TARGET_KIND),
    },
    group: { type: ["string", "null"], description: "The key of a group monitor.", "x-ref": "monitors" },
    vantage_sidecar: { type: "boolean" },
    quorum: { type: ["integer", "null"], minimum: 1 },
    badge_public: { type: "boolean" },
  },
  references(fields) {
    const named: NamedKey[] = [];
    if (typeof fields.target === "string") {
      const [kind, key] = splitRef(fields.target);
      named.push({ path: "target", kind: TYPE_OF_KIND.has(kind) ? kind : `(${kind || "no kind"})`, key });
    }
    if (typeof fields.group === "string") named.push({ path: "group", kind: "monitors", key: fields.group });
    return named;
  },
  order(entries) {
    // A group before its members, groups of groups first: by depth of the group chain within the file.
    const groupOf = new Map(entries.map((e) => [e.key, typeof e.fields.group === "string" ? e.fields.group : null]));
    const depth = (key: string, seen = new Set<string>()): number => {
      const g = groupOf.get(key);
      if (!g || seen.has(key) || !groupOf.has(g)) return 0;
      seen.add(key);
      return 1 + depth(g, seen);
    };
    return entries
      .map((e) => ({ e, d: depth(e.key) }))
      .sort((a, b) => a.d - b.d)
      .map(({ e }) => e);
  },
  async read(ctx, ids, keyOf, secrets) {
    const rows = ids.length === 0 ? [] : await ctx.db.select().from(monitors).where(inArray(monitors.id, ids));
    const vault = secrets ? vaultOf(ctx) : null;
    const out = new Map<number, Row>();
    for (const r of rows) {
      const opened = vault && r.secret_config ? ((await openSecrets(vault, r.id, r.secret_config)) as Row | null) : null;
      const targetKind = r.target_type ? TARGET_KIND[r.target_type as TargetType] : undefined;
      out.set(r.id, {
        name: r.name,
        check_type: r.check_type,
        host: r.host,
        config: configView(r.check_type, r.config as Row, opened, secrets),
        interval_secs: r.interval_secs,
        max_retries: r.max_retries,
        retry_interval_secs: r.retry_interval_secs,
        enabled: r.enabled,
        target: targetKind && r.target_id != null ? `${targetKind}/${keyOf(targetKind, r.target_id)}` : null,
        group: r.group_id != null ? keyOf("monitors", r.group_id) : null,
        vantage_sidecar: r.vantage_sidecar,
        quorum: r.quorum,
        badge_public: r.badge_public,
      });
    }
    return out;
  },
  body(fields, idOf) {
    const { target, group, ...rest } = fields;
    const body: Row = { ...rest };
    if (target !== undefined) {
      if (target === null) Object.assign(body, { target_type: null, target_id: null });
      else {
        const [kind, key] = splitRef(String(target));
        body.target_type = TYPE_OF_KIND.get(kind) ?? kind;
        body.target_id = idOf(kind, key) ?? NOT_YET;
      }
    }
    if (group !== undefined) body.group_id = group === null ? null : (idOf("monitors", String(group)) ?? NOT_YET);
    return body;
  },
  createRule: MonitorCreateBody,
  patchRule: MonitorPatchBody,
  async create(ctx, body) {
    const { monitor } = await createMonitor({ ctx, input: { body: body as never } });
    return monitor.id;
  },
  async update(ctx, id, body) {
    await patchMonitor({ ctx, input: { id, patch: body as never } });
  },
  async remove(ctx, id) {
    await deleteMonitor({ ctx, input: { id } });
  },
};
