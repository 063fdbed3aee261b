// POST /notifications/sinks: validates provider_config per type (unknown keys 422), seals the secrets in
// the vault bound to the new row, and answers the sink masked. A webhook sink given no secret gets one
// (`whsec_<base64>`, docs/architecture.md, API contracts), answered once in `secret` and never again.
import { eq } from "drizzle-orm";
import { notificationSinks } from "../../db/schema/index.ts";
import { splitProviderConfig } from "../../domain/notifications/notifier-config.ts";
import { generateWebhookSecret } from "../../domain/notifications/signing.ts";
import { ApiError } from "../../errors.ts";
import type { SinkCreate, SinkShape } from "../../schemas/notifications.ts";
import { readOutboundPolicy } from "../integrations/outbound-policy.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import { defineVerb } from "../verb.ts";
import { presentSink } from "./present-sink.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";
import { sealSinkSecrets } from "./sink-secrets.ts";
import { vaultOf } from "../verb-context.ts";

export const createSink = defineVerb({ scope: ADMIN_NOTIFICATIONS }, async (s, { body }: { body: SinkCreate }): Promise<SinkShape> => {
  const vault = vaultOf(s.ctx);
  const { value, issues } = splitProviderConfig(body.provider_type, body.provider_config, undefined, await readOutboundPolicy(s.tx));
  if (issues.length > 0) throw ApiError.validation(issues);
  let generated: string | undefined;
  if (body.provider_type === "webhook" && !value.secrets.secret) {
    generated = generateWebhookSecret(s.ctx.random);
    value.secrets.secret = generated;
  }
  if (Object.keys(value.secrets).length > 0) await assertVaultWritable(s.tx, vault, s.now);
  const [inserted] = await s.tx
    .insert(notificationSinks)
    .values({
      name: body.name,
      provider_type: body.provider_type,
      provider_config: value.plain,
      enabled: body.enabled,
      created_at: s.now,
      updated_at: s.now,
    })
    .returning();
  const secrets = await sealSinkSecrets(vault, inserted!.id, value.secrets);
  const [row] = secrets
    ? await s.tx.update(notificationSinks).set({ secrets }).where(eq(notificationSinks.id, inserted!.id)).returning()
    : [inserted];
  s.audit({
    action: "notification_sink.create",
    category: "notifications",
    entity_type: "notification_sink",
    entity_id: row!.id,
    diff: {
      after: {
        name: row!.name,
        provider_type: row!.provider_type,
        provider_config: value.plain,
        enabled: row!.enabled,
        secrets_set: Object.keys(value.secrets),
      },
    },
  });
  const shape = await presentSink(vault, row!);
  return generated ? { ...shape, secret: generated } : shape;
});
