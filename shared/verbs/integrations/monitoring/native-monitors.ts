// The built-in monitors (reference "native" integration): each is one of OUR monitors (made with the
// monitors' own insert, so the runner, samples, uptime and alerts are the monitors feature's) mirrored by
// an integration_monitors row (is_native, monitor_id, external_id native-hw-<id> / native-svc-<id>) of the
// singleton integration "Built-in Monitors", created with the first native monitor. The probe is derived as the reference
// does: a service's URL → http; its IP → tcp on its first port; a node → icmp on its address (our
// hardware has no hostname column: the address is what we have).
import { and, eq } from "drizzle-orm";
import { hardware, integrationMonitors, integrations, services } from "../../../db/schema/index.ts";
import { ApiError } from "../../../errors.ts";
import type { NativeMonitorInput } from "../../../schemas/integrations.ts";
import { insertMonitor } from "../../monitors/create-monitor.ts";
import { deleteMonitor } from "../../monitors/lifecycle.ts";
import { WRITE_MONITORS } from "../../monitors/scopes.ts";
import { defineRead, defineVerb, requireScope, type VerbScope } from "../../verb.ts";
import { vaultOf, type VerbContext } from "../../verb-context.ts";
import { fieldError } from "../providers/provider-config.ts";
import { DELETE_INTEGRATIONS, READ_INTEGRATIONS, WRITE_INTEGRATIONS } from "../scopes.ts";
import type { IntegrationRow } from "./integration-row.ts";
import { readIntegrationMonitors } from "./monitor-reads.ts";
import { NATIVE_NAME } from "./registry.ts";

export const NO_TARGET = "Cannot derive probe target — entity has no IP address, hostname, or URL.";

/** The native integration, inserted the first time (the partial unique index keeps it single under races). */
async function ensureNative(s: VerbScope): Promise<IntegrationRow> {
  const inserted = await s.tx
    .insert(integrations)
    .values({
      type: "native",
      name: NATIVE_NAME,
      sync_interval_s: 60,
      enabled: true,
      sync_status: "ok",
      next_sync_at: null,
      created_at: s.now,
      updated_at: s.now,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted[0])
    s.audit({
      action: "integrations.created",
      category: "integrations",
      entity_type: "integration",
      entity_id: inserted[0].id,
      diff: { name: NATIVE_NAME, type: "native" },
    });
  const [row] = await s.tx.select().from(integrations).where(eq(integrations.type, "native"));
  return row!;
}

/**
 * GET /integrations/native/monitors. The reference created the singleton here; a read never writes
 * (a viewer's GET would otherwise leave an audit entry), so before the first native monitor it is empty.
 */
export const listNativeMonitors = defineRead<undefined, Awaited<ReturnType<typeof readIntegrationMonitors>>>(
  { scope: READ_INTEGRATIONS },
  async (ctx) => {
    const [native] = await ctx.db.select({ id: integrations.id }).from(integrations).where(eq(integrations.type, "native"));
    return native ? readIntegrationMonitors(ctx.db, eq(integrationMonitors.integration_id, native.id), ctx.clock.now()) : [];
  },
);

interface Probe {
  type: "icmp" | "tcp" | "http";
  target: string;
  port: number | null;
  name: string;
  url: string | null;
}

async function deriveProbe(s: VerbScope, body: NativeMonitorInput): Promise<Probe> {
  let name: string;
  let url: string | null = null;
  let ip: string | null;
  let firstPort: number | null = null;
  if (body.entity_type === "hardware") {
    const [node] = await s.tx
      .select({ name: hardware.name, ip: hardware.ip_address })
      .from(hardware)
      .where(eq(hardware.id, body.entity_id));
    if (!node) throw new ApiError("RESOURCE_NOT_FOUND", "Hardware asset not found");
    ({ name, ip } = node);
  } else {
    const [svc] = await s.tx
      .select({ name: services.name, url: services.url, ip: services.ip_address, ports: services.ports })
      .from(services)
      .where(eq(services.id, body.entity_id));
    if (!svc) throw new ApiError("RESOURCE_NOT_FOUND", "Service not found");
    ({ name, url, ip } = svc);
    firstPort = svc.ports[0]?.port ?? null;
  }
  const derived: Probe["type"] = body.entity_type === "hardware" ? "icmp" : url ? "http" : "tcp";
  const type = body.probe_type ?? derived;
  const target = body.probe_target || (type === "http" ? url : ip);
  if (!target) throw new ApiError("VALIDATION_ERROR", NO_TARGET);
  const port = type === "tcp" ? (body.probe_port ?? firstPort) : null;
  if (type === "tcp" && port === null) throw fieldError("probe_port", "A tcp probe needs a port: the entity has none.");
  return { type, target, port, name: body.name ?? name, url: type === "http" ? target : null };
}

/** The monitor's host and config for a probe: http takes the URL (its host for `host`). */
function monitorFields(p: Probe): { host: string; config: Record<string, unknown> } {
  if (p.type === "http") {
    let host: string;
    try {
      host = new URL(p.target).hostname;
    } catch {
      throw fieldError("probe_target", "Must be an http(s) URL for an http probe.");
    }
    return { host, config: { url: p.target } };
  }
  return { host: p.target, config: p.type === "tcp" ? { port: p.port } : {} };
}

function needsBoth(ctx: VerbContext): void {
  requireScope(ctx, WRITE_INTEGRATIONS);
  requireScope(ctx, WRITE_MONITORS);
}

export const createNativeMonitor = defineVerb<{ body: NativeMonitorInput }, number>({ scope: needsBoth }, async (s, { body }) => {
  const vault = vaultOf(s.ctx);
  const native = await ensureNative(s);
  const externalId = `${body.entity_type === "hardware" ? "native-hw" : "native-svc"}-${body.entity_id}`;
  const [dup] = await s.tx
    .select({ id: integrationMonitors.id })
    .from(integrationMonitors)
    .where(and(eq(integrationMonitors.integration_id, native.id), eq(integrationMonitors.external_id, externalId)));
  if (dup) throw ApiError.conflict("Monitor already exists for this entity");
  const probe = await deriveProbe(s, body);
  const interval = body.probe_interval_s ?? 60;
  const monitor = await insertMonitor(s, vault, {
    name: probe.name,
    check_type: probe.type,
    ...monitorFields(probe),
    interval_secs: interval,
    max_retries: 0,
    retry_interval_secs: null,
    enabled: true,
    target_type: body.entity_type,
    target_id: body.entity_id,
    probe_agent_id: null,
  });
  const [row] = await s.tx
    .insert(integrationMonitors)
    .values({
      integration_id: native.id,
      external_id: externalId,
      name: probe.name,
      url: probe.url,
      status: "pending",
      probe_type: probe.type,
      probe_target: probe.target,
      probe_port: probe.port,
      probe_interval_s: interval,
      is_native: true,
      monitor_id: monitor.id,
      ...(body.entity_type === "hardware" ? { linked_hardware_id: body.entity_id } : { linked_service_id: body.entity_id }),
      created_at: s.now,
      updated_at: s.now,
    })
    .returning({ id: integrationMonitors.id });
  s.audit({
    action: "integrations.native_monitor.created",
    category: "integrations",
    entity_type: "integration_monitor",
    entity_id: row!.id,
    diff: { external_id: externalId, monitor_id: monitor.id, probe_type: probe.type },
  });
  return row!.id;
});

/** DELETE /integrations/native/monitors/{id}: the mirror row and our monitor (which takes the row with it). */
export const deleteNativeMonitor = defineRead<{ id: number }, void>({ scope: DELETE_INTEGRATIONS }, async (ctx, { id }) => {
  // deleteMonitor checks delete:monitors itself, in its own transaction.
  const [row] = await ctx.db
    .select({ monitor_id: integrationMonitors.monitor_id })
    .from(integrationMonitors)
    .innerJoin(integrations, eq(integrations.id, integrationMonitors.integration_id))
    .where(and(eq(integrationMonitors.id, id), eq(integrations.type, "native")));
  if (!row || row.monitor_id === null) throw new ApiError("RESOURCE_NOT_FOUND", "Monitor not found");
  await deleteMonitor({ ctx, input: { id: row.monitor_id } });
});

export const readNativeMonitor = defineRead(
  { scope: READ_INTEGRATIONS },
  async (ctx, { id }: { id: number }) => (await readIntegrationMonitors(ctx.db, eq(integrationMonitors.id, id), ctx.clock.now()))[0]!,
);
