// The HTTP side of destructive-action confirmation (spec 5.6): a high-impact route answers
// `confirmed(c, {action, requiresBackup}, (ctx) => verb({ctx, input}))`. The verb runs inside the
// confirmation's transaction; a repeated idempotency key replays the first answer with
// `Idempotent-Replayed: true` instead of acting twice.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { BACKUP_HEADER, CONFIRMATION_HEADER, type ConfirmationSpec, IDEMPOTENCY_HEADER } from "../shared/verbs/confirm/confirm.ts";
import { runConfirmed } from "../shared/verbs/confirm/run-confirmed.ts";
import type { VerbContext } from "../shared/verbs/verb-context.ts";
import { verbContext } from "./context.ts";
import type { AppEnv } from "./deps.ts";

export interface ConfirmedRoute extends ConfirmationSpec {
  /** The success status (200 unless given). */
  status?: ContentfulStatusCode;
}

/** Route description text naming the headers, for the OpenAPI document. */
export function confirmationDoc(spec: ConfirmationSpec): string {
  const backup = spec.requiresBackup ? `, \`${BACKUP_HEADER}: true\`` : "";
  return `High-impact: send \`${CONFIRMATION_HEADER}: ${spec.action}\`, \`${IDEMPOTENCY_HEADER}\` (12+ characters)${backup}; otherwise 428 CONFIRMATION_REQUIRED. Repeating the idempotency key replays the first answer; the same key for another request is 409.`;
}

export async function confirmed(
  c: Context<AppEnv>,
  spec: ConfirmedRoute,
  act: (ctx: VerbContext) => Promise<unknown>,
): Promise<Response> {
  const status = spec.status ?? 200;
  const { outcome, replayed } = await runConfirmed({
    ctx: verbContext(c),
    input: { spec, header: (name) => c.req.header(name), act: async (ctx) => ({ status, body: await act(ctx) }) },
  });
  if (replayed) c.header("Idempotent-Replayed", "true");
  return c.json(outcome.body, outcome.status as ContentfulStatusCode);
}
