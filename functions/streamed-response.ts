// A response body written while a verb reads (a streamed list, docs/adr/0503; the inventory export).
// The answer starts with the first piece, so a refusal before it (an unknown custom field, a database
// that is down) is still the ordinary error envelope; an error after it aborts the body, so a client
// never takes a cut-off stream for a whole one. A client that stops reading for STALL_MS gives up the
// stream, and with it the database connection and snapshot the verb holds.
import type { Context } from "hono";
import type { AppEnv } from "./deps.ts";

export const STALL_MS = 30_000;

type Write = (chunk: string) => Promise<void>;

export async function streamedResponse(
  c: Context<AppEnv>,
  headers: Record<string, string>,
  run: (write: Write) => Promise<unknown>,
): Promise<Response> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, undefined, { highWaterMark: 4 });
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let started: (() => void) | undefined;
  const first = new Promise<void>((resolve) => {
    started = resolve;
  });
  const write: Write = async (chunk) => {
    started?.();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the client read nothing for ${STALL_MS / 1000} s`)), STALL_MS);
    });
    try {
      await Promise.race([writer.ready.then(() => writer.write(encoder.encode(chunk))), stalled]);
    } finally {
      clearTimeout(timer);
    }
  };
  const ran = run(write);
  // Whichever comes first: the first piece (the answer starts) or the end (a refusal is thrown from here).
  await Promise.race([first, ran]);
  const done = ran
    .then(
      () => writer.close(),
      (err: unknown) => {
        c.get("deps").logger.warn("streamed response aborted", { path: c.req.path, error: (err as Error).message });
        return writer.abort(err);
      },
    )
    .catch(() => {});
  // The request's database lease (a per-request client on the edge) stays until the body is written.
  c.set("streaming", done);
  return new Response(readable, { status: 200, headers: { "Cache-Control": "no-store", ...headers } });
}
