// PATCH /notifications/sinks/{id} and PUT .../toggle. A secret omitted, empty or sent back masked keeps
// the stored one; a new one is sealed again with the others. Changing provider_type starts the config
// afresh: the old type's keys and secrets mean nothing to the new one.
import { eq } from "drizzle-orm";
import { notificationSinks } from "../../db/schema/index.ts";
import { splitProviderConfig } from "../../domain/notifications/notifier-config.ts";
import { type NotifierType, secretKeys } from "../../domain/notifications/notifiers/index.ts";
import { ApiError } from "../../errors.ts";
import type { SinkPatch, SinkShape } from "../../schemas/notifications.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import { defineVerb } from "../verb.ts";
import { presentSink } from "./present-sink.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";
import { openSinkSecrets, requireSink, sealSinkSecrets } from "./sink-secrets.ts";
import { vaultOf } from "../verb-context.ts";

export const patchSink = defineVerb(
  { scope: ADMIN_NOTIFICATIONS },
  async (s, { id, body }: { id: number; body: SinkPatch }): Promise<SinkShape> => {
    const vault = vaultOf(s.ctx);
    const before = await requireSink(s.tx, id, true);
    const type = (body.provider_type ?? before.provider_type) as NotifierType;
    const typeChanged = type !== before.provider_type;
    const changes: Partial<typeof notificationSinks.$inferInsert> = { updated_at: s.now };
    if (body.name !== undefined) changes.name = body.name;
    if (body.enabled !== undefined) changes.enabled = body.enabled;
    let secretsChanged: string[] = [];
    if (body.provider_config !== undefined || typeChanged) {
      const stored = typeChanged ? {} : await openSinkSecrets(vault, before);
      const storedView = { plain: typeChanged ? {} : before.provider_config, secretsSet: new Set(Object.keys(stored)) };
      const { value, issues } = splitProviderConfig(type, body.provider_config ?? {}, storedView, await readOutboundPolicy(s.tx));
      if (issues.length > 0) throw ApiError.validation(issues);
      secretsChanged = Object.keys(value.secrets).filter((k) => value.secrets[k] !== stored[k]);
      const allowed = new Set(secretKeys(type));
      const merged = Object.fromEntries(Object.entries({ ...stored, ...value.secrets }).filter(([k]) => allowed.has(k)));
      if (secretsChanged.length > 0) await assertVaultWritable(s.tx, vault, s.now);
      changes.provider_type = type;
      changes.provider_config = value.plain;
      if (secretsChanged.length > 0 || typeChanged) changes.secrets = await sealSinkSecrets(vault, id, merged);
    }
    const [row] = await s.tx.update(notificationSinks).set(changes).where(eq(notificationSinks.id, id)).returning();
    s.audit({
      action: "notification_sink.update",
      category: "notifications",
      entity_type: "notification_sink",
      entity_id: id,
      diff: {
        before: {
          name: before.name,
          provider_type: before.provider_type,
          provider_config: before.provider_config,
          enabled: before.enabled,
        },
        after: { name: row!.name, provider_type: row!.provider_type, provider_config: row!.provider_config, enabled: row!.enabled },
        ...(secretsChanged.length > 0 ? { secrets_changed: secretsChanged } : {}),
      },
    });
    return presentSink(vault, row!);
  },
);

export const toggleSink = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, { id }: { id: number }): Promise<SinkShape> => {
  const vault = vaultOf(s.ctx);
  const before = await requireSink(s.tx, id, true);
  const [row] = await s.tx
    .update(notificationSinks)
    .set({ enabled: !before.enabled, updated_at: s.now })
    .where(eq(notificationSinks.id, id))
    .returning();
  s.audit({
    action: "notification_sink.toggle",
    category: "notifications",
    entity_type: "notification_sink",
    entity_id: id,
    diff: { enabled: row!.enabled },
  });
  return presentSink(vault, row!);
});

export const deleteSink = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, { id }: { id: number }): Promise<{ status: "ok" }> => {
  const before = await requireSink(s.tx, id, true);
  // Its routes and deliveries go with it (foreign keys cascade); the alerts stay as history.
  await s.tx.delete(notificationSinks).where(eq(notificationSinks.id, id));
  s.audit({
    action: "notification_sink.delete",
    category: "notifications",
    entity_type: "notification_sink",
    entity_id: id,
    diff: { before: { name: before.name, provider_type: before.provider_type } },
  });
  return { status: "ok" };
});
