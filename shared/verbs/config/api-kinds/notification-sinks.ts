// Notification sinks in a lab file (docs/cli.md, docs/adr/0507): name, provider_type, provider_config
// and enabled, as the API takes them. The provider's secret keys (an SMTP password, a bot token, a
// webhook's signing secret) are given as ${env:NAME}; one the file leaves out keeps the stored value (a
// webhook sink created without `secret` keeps the one the server generated).
import { inArray } from "drizzle-orm";
import { notificationSinks } from "../../../db/schema/index.ts";
import { NOTIFIER_TYPES, secretKeys } from "../../../domain/notifications/notifiers/index.ts";
import { SinkCreateBody, SinkPatchBody } from "../../../schemas/notifications.ts";
import { patchSink, deleteSink } from "../../notifications/change-sink.ts";
import { createSink } from "../../notifications/create-sink.ts";
import { openSinkSecrets } from "../../notifications/sink-secrets.ts";
import { vaultOf } from "../../verb-context.ts";
import type { ApiConfigKind, Row } from "../api-kind.ts";

const ALL_SECRET_KEYS = [...new Set(NOTIFIER_TYPES.flatMap((t) => secretKeys(t)))];

export const notificationSinksKind: ApiConfigKind = {
  key: "notification_sinks",
  table: "notification_sinks",
  nameField: "name",
  schema: {
    name: { type: "string", minLength: 1, maxLength: 255 },
    provider_type: { enum: [...NOTIFIER_TYPES] },
    provider_config: {
      type: "object",
      description: `The provider's settings; its secrets as \${env:NAME}.`,
      properties: Object.fromEntries(ALL_SECRET_KEYS.map((k) => [k, { type: ["string", "null"], "x-secret": true }])),
    },
    enabled: { type: "boolean" },
  },
  references: () => [],
  async read(ctx, ids, _keyOf, secrets) {
    const rows = ids.length === 0 ? [] : await ctx.db.select().from(notificationSinks).where(inArray(notificationSinks.id, ids));
    const vault = vaultOf(ctx);
    const out = new Map<number, Row>();
    for (const r of rows) {
      // Opened either way: only the opened object says which of the type's secret keys are set.
      const opened = await openSinkSecrets(vault, r);
      const stored = secrets ? opened : Object.fromEntries(Object.keys(opened).map((k) => [k, true]));
      out.set(r.id, {
        name: r.name,
        provider_type: r.provider_type,
        provider_config: { ...(r.provider_config as Row), ...stored },
        enabled: r.enabled,
      });
    }
    return out;
  },
  body: (fields) => ({ ...fields }),
  createRule: SinkCreateBody,
  patchRule: SinkPatchBody,
  async create(ctx, body) {
    return (await createSink({ ctx, input: { body: body as never } })).id;
  },
  async update(ctx, id, body) {
    await patchSink({ ctx, input: { id, body: body as never } });
  },
  async remove(ctx, id) {
    await deleteSink({ ctx, input: { id } });
  },
};
