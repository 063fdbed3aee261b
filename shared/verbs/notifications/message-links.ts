// The links a delivered message carries when the server knows its public address (PUBLIC_URL;
// docs/adr/0447-acknowledgement.md): `alert`, the console page of its incident, and for a firing alert of an
// open incident `acknowledge`, a signed single-use link valid for a day (ack-token.ts).
import type { Random } from "../../clock.ts";
import type { Db } from "../../db/database.ts";
import type { notificationAlerts } from "../../db/schema/index.ts";
import { ACK_LINK_TTL_MS, mintAckToken } from "../../domain/notifications/ack-token.ts";
import { alertStatusOf } from "../../domain/notifications/alert-status.ts";
import type { AlertMessage } from "../../domain/notifications/notifiers/notifier.ts";
import { readSetting } from "../../settings/read.ts";

export interface LinkSigning {
  /** PUBLIC_URL from the configuration; the public_url setting wins when set (as for OAuth). */
  publicUrl: string | undefined;
  signingKey: Uint8Array;
}

/** The server's public address without a trailing slash (the public_url setting, else PUBLIC_URL), or undefined. */
export async function publicBaseUrl(db: Db, configured: string | undefined): Promise<string | undefined> {
  const base = ((await readSetting(db, "public_url")) || configured || "").trim().replace(/\/+$/, "");
  return /^https?:\/\/[^/]/i.test(base) ? base : undefined;
}

/** The signing with the address the links are made under, or undefined when the server knows none. */
export async function linkSigning(db: Db, configured: LinkSigning | undefined): Promise<LinkSigning | undefined> {
  if (!configured) return undefined;
  const base = await publicBaseUrl(db, configured.publicUrl);
  return base ? { publicUrl: base, signingKey: configured.signingKey } : undefined;
}

type AlertRow = Pick<typeof notificationAlerts.$inferSelect, "id" | "kind" | "incident_id">;

export function messageLinks(
  signing: LinkSigning | undefined,
  alert: AlertRow,
  incident: { resolved_at: Date | null } | undefined,
  sinkId: number,
  now: Date,
  random: Random,
): AlertMessage["links"] {
  if (!signing?.publicUrl) return {};
  const base = signing.publicUrl;
  const page = alert.incident_id ?? alert.id;
  const links: AlertMessage["links"] = { alert: `${base}/alerts/${page}` };
  if (alertStatusOf(alert.kind) === "firing" && alert.incident_id != null && incident && !incident.resolved_at) {
    const token = mintAckToken(
      signing.signingKey,
      { incident_id: alert.incident_id, sink_id: sinkId, expires_at: new Date(now.getTime() + ACK_LINK_TTL_MS) },
      random,
    );
    links.acknowledge = `${base}/api/v1/ack/${token}`;
  }
  return links;
}
