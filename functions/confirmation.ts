// The HTTP side of destructive-action confirmation (spec 5.6): a high-impact route answers
// `confirmed(c, {action, requiresBackup}, reply, (ctx) => verb({ctx, input}))` with its own typed reply(),
// so the verb's answer is checked against the route's response schema. The verb runs inside the
// confirmation's transaction; a repeated idempotency key replays the first answer (its status and body,
// as stored) with `Idempotent-Replayed: true` instead of acting twice.
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

/** A route's typed reply() (RouteInput.reply) for answers of type T. */
export type Reply<T> = (value: T, status?: ContentfulStatusCode) => Response;

/**
 * Runs `act` behind the confirmation and answers through the route's `reply`: the action's answer must be
 * the route's answer type. A replay answers the stored outcome, which is that same answer as JSON, with
 * the status the first request got.
 */
export async function confirmed<T>(
  c: Context<AppEnv>,
  spec: ConfirmedRoute,
  reply: Reply<T>,
  act: (ctx: VerbContext) => Promise<NoInfer<T>>,
): Promise<Response> {
  const status = spec.status ?? 200;
  const { outcome, replayed } = await runConfirmed({
    ctx: verbContext(c),
    input: { spec, header: (name) => c.req.header(name), act: async (ctx) => ({ status, body: await act(ctx) }) },
  });
  if (replayed) c.header("Idempotent-Replayed", "true");
  // The stored body is the JSON of a T an earlier call of this route answered (run-confirmed.ts).
  return reply(outcome.body as T, outcome.status as ContentfulStatusCode);
}
