// Heartbeat (push) monitors in the sidecar (docs/adr/0439), against real PostgreSQL: the runner never
// claims one; the worker's sweep marks down only those past their deadline, once each even with two
// sidecars sweeping; and the group commit puts pushes submitted together into one transaction (their
// sample rows share one xmin), each answered only after it committed.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeRuntime } from "../../../runtime/node-deps.ts";
import { commitPush } from "../../../shared/verbs/monitors/push/group-commit.ts";
import { pushTokenHash } from "../../../shared/verbs/monitors/push/token.ts";
import { systemContext } from "../../../shared/verbs/verb-context.ts";
import { monitorsWorker } from "../../../sidecar/monitors/monitors-worker.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/database.ts";
import { DrivenClock, insertMonitor, monitorRow, openTestRuntime, rowsOf } from "./support.ts";

let db: TestDatabase;
let runtime: NodeRuntime;
const clock = new DrivenClock();

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openTestRuntime(db.url, clock);
});
afterAll(async () => {
  await runtime?.close();
  await db?.drop();
});

const pushMonitor = (due: Date, extra: Record<string, unknown> = {}) =>
  insertMonitor(runtime, { check_type: "push", host: "", status: "up", interval_secs: 60, next_check_at: due, ...extra });

describe("the push sweep", () => {
  it("is never claimed by the runner; the sweep marks down only the overdue, once with two sidecars", async () => {
    const now = clock.now();
    const overdue = await pushMonitor(new Date(now.getTime() - 1000));
    const later = await pushMonitor(new Date(now.getTime() + 60_000));
    const one = monitorsWorker(runtime, { owner: "push-a" });
    const two = monitorsWorker(runtime, { owner: "push-b" });
    await one.tick();
    expect((await monitorRow(runtime, overdue)).claimed_by).toBeNull();
    await Promise.all([one.sweepPushes(), two.sweepPushes()]);
    const down = await monitorRow(runtime, overdue);
    expect(down.status).toBe("down");
    expect(down.last_msg).toBe(`No push yet, expected by ${new Date(now.getTime() - 1000).toISOString()}.`);
    // The next deadline: one interval plus the default grace (60 s) from now.
    expect(down.next_check_at.toISOString()).toBe(new Date(now.getTime() + 120_000).toISOString());
    expect((await monitorRow(runtime, later)).status).toBe("up");
    const samples = await rowsOf<{ monitor_id: number }>(
      runtime,
      sql`select monitor_id from monitor_samples where monitor_id in (${overdue}, ${later})`,
    );
    expect(samples).toEqual([{ monitor_id: overdue }]);
    const alerts = await rowsOf<{ kind: string }>(runtime, sql`select kind from notification_alerts where monitor_id = ${overdue}`);
    expect(alerts).toEqual([{ kind: "monitor.down" }]);
  });
});

describe("the group commit", () => {
  it("commits pushes submitted together in one transaction and answers each after it", async () => {
    const tokens = Array.from({ length: 20 }, (_, i) => `token-${i}-${"x".repeat(30)}`);
    const ids: number[] = [];
    for (const t of tokens) ids.push(await pushMonitor(new Date(clock.now().getTime() + 60_000), { push_token_hash: pushTokenHash(t) }));
    const ctx = systemContext({ db: runtime.database.db, clock, random: runtime.deps.random });
    const push = (t: string) => commitPush(ctx, { token_hash: pushTokenHash(t), status: null, msg: null, ping_ms: null, exit_code: null });
    const outcomes = await Promise.all([...tokens.map(push), push("no-such-token")]);
    expect(outcomes).toEqual([...tokens.map(() => ({ status: "recorded" })), { status: "unknown" }]);
    // Each answer came after its commit: every sample is visible now; one transaction wrote them all.
    const [seen] = await rowsOf<{ n: number; transactions: number }>(
      runtime,
      sql`select count(*)::int as n, count(distinct xmin::text)::int as transactions from monitor_samples where monitor_id = any(${`{${ids.join(",")}}`}::int[])`,
    );
    expect(seen).toEqual({ n: 20, transactions: 1 });
    // A later push is a transaction of its own.
    expect(await push(tokens[0]!)).toEqual({ status: "recorded" });
    const [after] = await rowsOf<{ transactions: number }>(
      runtime,
      sql`select count(distinct xmin::text)::int as transactions from monitor_samples where monitor_id = any(${`{${ids.join(",")}}`}::int[])`,
    );
    expect(after!.transactions).toBe(2);
  });
});
