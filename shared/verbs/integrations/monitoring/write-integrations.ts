// Monitoring integration writes: create (201), PATCH, DELETE. An Uptime Kuma base_url is checked under
// the installation's SSRF policy (422 naming base_url); the API key is sealed bound to the row. The
// scheduled sync (sidecar/integrations) runs each enabled Uptime Kuma integration every sync_interval_s,
// the first one soon after creation; the native integration has nothing to fetch and is never due.
import { eq } from "drizzle-orm";
import { integrations } from "../../../db/schema/index.ts";
import { checkOutboundUrl, type OutboundPolicy } from "../../../domain/net/outbound-policy.ts";
import { ApiError } from "../../../errors.ts";
import type { IntegrationCreateInput, IntegrationUpdateInput } from "../../../schemas/integrations.ts";
import { defineVerb, type VerbScope } from "../../verb.ts";
import { readOutboundPolicy } from "../outbound-policy.ts";
import { fieldError } from "../providers/provider-config.ts";
import { DELETE_INTEGRATIONS, WRITE_INTEGRATIONS } from "../scopes.ts";
import { storeApiKey } from "./api-key.ts";
import { findIntegration, type IntegrationRow } from "./integration-row.ts";
import { isIntegrationType } from "./registry.ts";
import { vaultOf } from "../../verb-context.ts";

/** base_url as stored: an http(s) URL the policy allows, without a trailing slash. */
export function checkBaseUrl(raw: string, policy: OutboundPolicy): string {
  const check = checkOutboundUrl(raw, policy);
  if (!check.ok) throw fieldError("base_url", check.message);
  if (check.url.search || check.url.hash) throw fieldError("base_url", "Must not have a query or a fragment.");
  return raw.trim().replace(/\/+$/, "");
}

const nextSync = (row: { type: string; enabled: boolean }, from: Date, intervalS: number) =>
  row.type === "uptime_kuma" && row.enabled ? new Date(from.getTime() + intervalS * 1000) : null;

/** The audit's view of the fields: the key only as a flag. */
function auditDiff(fields: IntegrationUpdateInput): Record<string, unknown> {
  const { api_key, ...clear } = fields;
  return { ...clear, ...(api_key !== undefined && { api_key_set: api_key !== null && api_key !== "" }) };
}

function audit(s: VerbScope, what: string, row: IntegrationRow, diff: Record<string, unknown>) {
  s.audit({
    action: `integrations.${what}`,
    category: "integrations",
    entity_type: "integration",
    entity_id: row.id,
    diff: { name: row.name, type: row.type, ...diff },
  });
}

export const createIntegration = defineVerb<{ body: IntegrationCreateInput }, IntegrationRow, string | null>(
  {
    scope: WRITE_INTEGRATIONS,
    async prepare(ctx, { body }) {
      if (!isIntegrationType(body.type)) throw new ApiError("BAD_REQUEST", "Unknown integration type");
      if (body.type === "native")
        throw ApiError.conflict("The built-in monitors integration is created on first use of /integrations/native/monitors.");
      if (body.base_url == null) throw fieldError("base_url", "Required for an Uptime Kuma integration.");
      return checkBaseUrl(body.base_url, await readOutboundPolicy(ctx.db));
    },
  },
  async (s, { body }, baseUrl) => {
    const vault = vaultOf(s.ctx);
    const interval = body.sync_interval_s ?? 60;
    const enabled = body.enabled ?? true;
    const [inserted] = await s.tx
      .insert(integrations)
      .values({
        type: body.type,
        name: body.name,
        base_url: baseUrl,
        slug: body.slug || null,
        sync_interval_s: interval,
        enabled,
        next_sync_at: enabled ? s.now : null,
        created_at: s.now,
        updated_at: s.now,
      })
      .returning();
    let row = inserted!;
    if (body.api_key) {
      await storeApiKey(s, vault, row.id, body.api_key);
      row = { ...row, api_key: "sealed" };
    }
    audit(s, "created", row, auditDiff({ ...body, base_url: baseUrl }));
    return row;
  },
);

export const updateIntegration = defineVerb<{ id: number; body: IntegrationUpdateInput }, IntegrationRow, string | undefined>(
  {
    scope: WRITE_INTEGRATIONS,
    async prepare(ctx, { body }) {
      if (body.base_url === undefined) return undefined;
      if (body.base_url === null) throw fieldError("base_url", "Must not be null.");
      return checkBaseUrl(body.base_url, await readOutboundPolicy(ctx.db));
    },
  },
  async (s, { id, body }, baseUrl) => {
    const vault = vaultOf(s.ctx);
    const before = await findIntegration(s.tx, id, true);
    if (before.type === "native" && (baseUrl !== undefined || body.api_key || body.slug))
      throw fieldError(
        baseUrl !== undefined ? "base_url" : body.api_key ? "api_key" : "slug",
        "The built-in monitors integration has no connection fields.",
      );
    const enabled = body.enabled ?? before.enabled;
    const interval = body.sync_interval_s ?? before.sync_interval_s;
    const rescheduled = body.enabled !== undefined || body.sync_interval_s !== undefined;
    const [updated] = await s.tx
      .update(integrations)
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(baseUrl !== undefined && { base_url: baseUrl }),
        ...(body.slug !== undefined && { slug: body.slug || null }),
        enabled,
        sync_interval_s: interval,
        ...(rescheduled && { next_sync_at: nextSync({ type: before.type, enabled }, before.last_synced_at ?? s.now, interval) }),
        updated_at: s.now,
      })
      .where(eq(integrations.id, id))
      .returning();
    let row = updated!;
    if (body.api_key !== undefined) {
      await storeApiKey(s, vault, id, body.api_key);
      row = { ...row, api_key: body.api_key ? "sealed" : null };
    }
    audit(s, "updated", row, auditDiff({ ...body, ...(baseUrl !== undefined && { base_url: baseUrl }) }));
    return row;
  },
);

/** Deletes the integration and its monitor rows; our own monitors a native row mirrored stay (DELETE /monitors/{id} removes those). */
export const deleteIntegration = defineVerb<{ id: number }, void>({ scope: DELETE_INTEGRATIONS }, async (s, { id }) => {
  const row = await findIntegration(s.tx, id, true);
  await s.tx.delete(integrations).where(eq(integrations.id, id));
  audit(s, "deleted", row, {});
});
