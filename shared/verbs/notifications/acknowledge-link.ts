// The signed acknowledgement link of a delivered message (docs/adr/0447-acknowledgement.md): GET /ack/{token}
// only looks (chat apps and mail scanners fetch links to preview them, so a GET must change nothing);
// POST acknowledges, once: the token's nonce is recorded in the same transaction. A forged token, an
// expired one, a used one or one whose incident already resolved is refused, and nothing changes.
import { eq, lt, sql } from "drizzle-orm";
import { queryRows } from "../../db/database.ts";
import { notificationAckNonces, notificationAlerts, notificationSinks } from "../../db/schema/index.ts";
import { ACK_LINK_TTL_MS, type AckClaims, verifyAckToken } from "../../domain/notifications/ack-token.ts";
import { ApiError } from "../../errors.ts";
import type { VerbContext } from "../verb-context.ts";
import { defineRead, defineVerb } from "../verb.ts";
import { setAcknowledged } from "./acknowledge.ts";

export const UNKNOWN_ACK_LINK = "This acknowledgement link is not valid (mistyped, cut short, or not made by this server).";

export interface AckLinkInput {
  token: string;
  signingKey: Uint8Array;
}

export interface AckLinkView {
  incident_id: number;
  title: string;
  severity: string;
  occurred_at: string;
  expires_at: string;
  sink_name: string | null;
  acknowledged_by: string | null;
  acknowledged_at: string | null;
}

/** The checks a link passes before anything is shown or done; the incident row with its sink's name. */
async function check(ctx: Pick<VerbContext, "db" | "clock">, { token, signingKey }: AckLinkInput, now: Date) {
  const claims = verifyAckToken(signingKey, token);
  if (!claims) throw new ApiError("RESOURCE_NOT_FOUND", UNKNOWN_ACK_LINK, { reason: "invalid" });
  if (claims.expires_at.getTime() <= now.getTime())
    throw new ApiError(
      "GONE",
      `This acknowledgement link expired at ${claims.expires_at.toISOString()}; acknowledge the alert in the console.`,
      {
        reason: "expired",
      },
    );
  const [used] = await queryRows<{ used_at: string }>(
    ctx.db,
    sql`select used_at from notification_ack_nonces where nonce = ${claims.nonce}`,
  );
  if (used)
    throw ApiError.conflict(
      `This acknowledgement link was already used at ${new Date(used.used_at).toISOString()}; a link acknowledges once.`,
      {
        reason: "used",
      },
    );
  const [incident] = await ctx.db.select().from(notificationAlerts).where(eq(notificationAlerts.id, claims.incident_id));
  if (!incident || incident.incident_id !== incident.id) throw new ApiError("RESOURCE_NOT_FOUND", UNKNOWN_ACK_LINK, { reason: "invalid" });
  if (incident.resolved_at)
    throw ApiError.conflict(`This incident was resolved at ${incident.resolved_at.toISOString()}: there is nothing left to acknowledge.`, {
      reason: "resolved",
    });
  const [sink] = await ctx.db
    .select({ name: notificationSinks.name })
    .from(notificationSinks)
    .where(eq(notificationSinks.id, claims.sink_id));
  return { claims, incident, sinkName: sink?.name ?? null };
}

function view(claims: AckClaims, incident: typeof notificationAlerts.$inferSelect, sinkName: string | null): AckLinkView {
  return {
    incident_id: incident.id,
    title: incident.title,
    severity: incident.severity,
    occurred_at: incident.occurred_at.toISOString(),
    expires_at: claims.expires_at.toISOString(),
    sink_name: sinkName,
    acknowledged_by: incident.acknowledged_by,
    acknowledged_at: incident.acknowledged_at?.toISOString() ?? null,
  };
}

/** GET: what the link would acknowledge, for the confirmation page; changes nothing. */
export const inspectAckLink = defineRead<AckLinkInput, AckLinkView>({ scope: "public" }, async (ctx, input) => {
  const { claims, incident, sinkName } = await check(ctx, input, ctx.clock.now());
  return view(claims, incident, sinkName);
});

/** POST: acknowledges the link's incident as "link via <sink>" and uses the link up. */
export const acknowledgeByLink = defineVerb<AckLinkInput, AckLinkView & { acknowledged: boolean }>(
  { scope: "public" },
  async (s, input) => {
    const { claims, incident: seen, sinkName } = await check({ db: s.tx, clock: s.ctx.clock }, input, s.now);
    const inserted = await s.tx
      .insert(notificationAckNonces)
      .values({ nonce: claims.nonce, incident_id: claims.incident_id, used_at: s.now })
      .onConflictDoNothing()
      .returning({ nonce: notificationAckNonces.nonce });
    // Two clicks at once: the second waits on the first's row and finds it used.
    if (inserted.length === 0)
      throw ApiError.conflict("This acknowledgement link was already used; a link acknowledges once.", { reason: "used" });
    // Used nonces matter only while their links could still be valid.
    await s.tx
      .delete(notificationAckNonces)
      .where(lt(notificationAckNonces.used_at, new Date(s.now.getTime() - ACK_LINK_TTL_MS - 3600_000)));
    const [incident] = await s.tx.select().from(notificationAlerts).where(eq(notificationAlerts.id, seen.id)).for("update");
    if (!incident || incident.resolved_at)
      throw ApiError.conflict("This incident was resolved meanwhile: there is nothing left to acknowledge.", { reason: "resolved" });
    const name = `link via ${sinkName ?? `sink ${claims.sink_id}`}`;
    const acknowledged = await setAcknowledged(s, incident, {
      name,
      note: null,
      via: "link",
      alert_id: incident.id,
      sink_id: claims.sink_id,
    });
    const [after] = await s.tx.select().from(notificationAlerts).where(eq(notificationAlerts.id, incident.id));
    return { ...view(claims, after!, sinkName), acknowledged };
  },
);
