// A sink's secrets are one vault ciphertext of a JSON object {key: secret} in notification_sinks.secrets,
// bound to the sink's row (NOTIFICATION_SINK_SECRETS in shared/verbs/vault/secret-columns.ts), so a
// provider with several secrets needs no column per key.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/database.ts";
import { notificationSinks } from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import type { Vault } from "../../vault/vault.ts";
import { NOTIFICATION_SINK_SECRETS, openSecret, sealSecret } from "../vault/secret-columns.ts";

export type SinkRow = typeof notificationSinks.$inferSelect;

export async function openSinkSecrets(vault: Vault, row: Pick<SinkRow, "id" | "secrets">): Promise<Record<string, string>> {
  if (!row.secrets) return {};
  const text = await openSecret(vault, NOTIFICATION_SINK_SECRETS, row.id, row.secrets);
  const value = JSON.parse(text) as unknown;
  return value && typeof value === "object" ? (value as Record<string, string>) : {};
}

export function sealSinkSecrets(vault: Vault, sinkId: number, secrets: Record<string, string>): Promise<string | null> {
  if (Object.keys(secrets).length === 0) return Promise.resolve(null);
  return sealSecret(vault, NOTIFICATION_SINK_SECRETS, sinkId, JSON.stringify(secrets));
}

export async function requireSink(db: Db, id: number, lock = false): Promise<SinkRow> {
  const query = db.select().from(notificationSinks).where(eq(notificationSinks.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw ApiError.notFound("Notification sink", id);
  return row;
}
