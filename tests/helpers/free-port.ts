// A loopback port nothing listens on, for a process the test starts later (a product, a relay) or for a
// connection that must be refused.
//
// Ports come from a block below the kernel's ephemeral range (32768-60999 by default) that belongs to this
// vitest worker alone (VITEST_POOL_ID). A port listen(0) hands out and the test releases is free for the
// kernel to hand to another file's listen(0) in the seconds before our product binds it; that product then
// answers our readyz, ours exits on EADDRINUSE, and the test talks to a stranger (a fresh-clone CI run saw
// ECONNREFUSED right after "ready").
import { randomInt } from "node:crypto";
import { createServer } from "node:net";

const BLOCK = 600;
const FIRST = 20_000;
const block = (Number(process.env.VITEST_POOL_ID ?? 1) - 1) % 20;
// A random start, so files that follow each other in one worker do not reuse the same ports first.
let next = randomInt(BLOCK);

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tried = 0; tried < BLOCK; tried++) {
    const port = FIRST + block * BLOCK + (next++ % BLOCK);
    if (await canBind(port)) return port;
  }
  throw new Error(`no free port in ${FIRST + block * BLOCK}-${FIRST + (block + 1) * BLOCK - 1}`);
}
