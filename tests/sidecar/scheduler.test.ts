// The sidecar scheduler: croner's UTC slots (whatever the local zone), jobs run through the shared
// runner with the injected clock, a failing job is recorded and runs again at its next slot, stop()
// waits for the run in progress, and two sidecars racing for one slot give one success and one skip.
process.env.TZ = "America/New_York"; // the slots must not move with the host's zone

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../shared/config.ts";
import type { Logger } from "../../shared/logger.ts";
import { type JobDefinition, type JobDeps, throwIfStopped } from "../../shared/verbs/jobs/job.ts";
import { Scheduler } from "../../sidecar/scheduler/scheduler.ts";
import { type NodeDatabase, openDatabase } from "../../runtime/database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

let tdb: TestDatabase;
let db: NodeDatabase;
const open: Scheduler[] = [];
const extra: NodeDatabase[] = [];

const T = Date.parse("2026-11-03T02:30:00Z");
const clock = { now: () => new Date(T) };

function recordingLogger() {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, ...(fields ? { fields } : {}) });
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, lines };
}

function scheduler(jobs?: readonly JobDefinition[], database = db, logger = recordingLogger().logger): Scheduler {
  const s = new Scheduler({ database: database.provider, clock, logger, ...(jobs ? { jobs } : {}) });
  open.push(s);
  return s;
}

const runs = async (job: string) =>
  db.sql!`select trigger, outcome, error, started_at, rows_touched from job_runs where job = ${job} order by id`;

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = await openDatabase(parseConfig({ DATABASE_URL: tdb.url, DB_POOL_MAX: "4" }));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  for (const d of [...extra, db]) await d.provider.close();
  await tdb.drop();
});

describe("slots", () => {
  it("analytics at 02:30 and retention at 03:30 UTC, daily", () => {
    const s = scheduler();
    expect(new Date(T).getHours()).not.toBe(2); // the process really is in another zone
    expect(s.nextRun("analytics", new Date("2026-11-03T02:29:59Z"))!.toISOString()).toBe("2026-11-03T02:30:00.000Z");
    expect(s.nextRun("analytics", new Date("2026-11-03T02:30:00Z"))!.toISOString()).toBe("2026-11-04T02:30:00.000Z");
    expect(s.nextRun("retention", new Date("2026-11-03T02:30:00Z"))!.toISOString()).toBe("2026-11-03T03:30:00.000Z");
    expect(s.nextRun("retention", new Date("2026-12-31T23:59:00Z"))!.toISOString()).toBe("2027-01-01T03:30:00.000Z");
    // A daylight-saving change in the host's zone (New York, 2026-11-01) does not shift a UTC slot.
    expect(s.nextRun("analytics", new Date("2026-10-31T12:00:00Z"))!.toISOString()).toBe("2026-11-01T02:30:00.000Z");
    expect(s.nextRun("analytics", new Date("2026-11-01T12:00:00Z"))!.toISOString()).toBe("2026-11-02T02:30:00.000Z");
  });

  it("hands its capabilities (vault, acme, tls) to the jobs it runs; certificates runs daily at 04:40 UTC", async () => {
    const seen: unknown[] = [];
    const services = { vault: { marker: "vault" } } as unknown as JobDeps;
    const job: JobDefinition = {
      name: "services",
      lockKey: "services_job",
      schedule: "0 0 1 1 *",
      description: "",
      run: async (env) => (seen.push(env.deps), { rows_touched: 0, detail: {} }),
    };
    const s = new Scheduler({ database: db.provider, clock, logger: recordingLogger().logger, jobs: [job], deps: services });
    open.push(s);
    await s.trigger("services");
    expect(seen).toEqual([services]);
    expect(scheduler().nextRun("certificates", new Date("2026-11-03T05:00:00Z"))!.toISOString()).toBe("2026-11-04T04:40:00.000Z");
  });

  it("a slot fires the job through the runner with the injected clock", async () => {
    const s = scheduler();
    await s.trigger("analytics");
    const [run] = await runs("analytics");
    expect(run).toMatchObject({ trigger: "schedule", outcome: "success", rows_touched: 0 });
    expect(new Date(run!.started_at).getTime()).toBe(T);
  });

  it("croner's own timer fires a job (a per-second pattern, real time)", async () => {
    let fired = 0;
    scheduler([
      {
        name: "tick",
        lockKey: "tick_job",
        schedule: "* * * * * *",
        description: "",
        run: async () => ({ rows_touched: ++fired, detail: {} }),
      },
    ]);
    await until(async () => (await runs("tick")).some((r) => r.outcome === "success"), 4000);
    expect((await runs("tick")).every((r) => r.trigger === "schedule")).toBe(true);
  });
});

describe("failures and shutdown", () => {
  it("a failing job is recorded and logged, the scheduler carries on, and the next slot runs it again", async () => {
    let failing = true;
    const { logger, lines } = recordingLogger();
    const s = scheduler(
      [
        {
          name: "flaky",
          lockKey: "flaky_job",
          schedule: "0 0 1 1 *",
          description: "",
          run: async () => {
            if (failing) throw new Error("disk on fire");
            return { rows_touched: 3, detail: {} };
          },
        },
      ],
      db,
      logger,
    );
    await s.trigger("flaky");
    await s.trigger("flaky");
    failing = false;
    await s.trigger("flaky");
    expect((await runs("flaky")).map((r) => [r.outcome, r.error])).toEqual([
      ["failed", "disk on fire"],
      ["failed", "disk on fire"],
      ["success", null],
    ]);
    expect(lines.filter((l) => l.level === "error" && l.msg === "job failed").length).toBe(2);
    expect(s.nextRun("flaky", new Date("2026-11-03T00:00:00Z"))!.toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  it("stop() waits for the run in progress, which stops at its next batch; no new runs after", async () => {
    const g = gate();
    const s = scheduler([
      {
        name: "long",
        lockKey: "long_job",
        schedule: "0 0 1 1 *",
        description: "",
        run: async ({ signal }) => {
          await g.opened;
          throwIfStopped(signal);
          return { rows_touched: 1, detail: {} };
        },
      },
    ]);
    void s.trigger("long");
    await until(async () => (await runs("long")).some((r) => r.outcome === "running"));
    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 150));
    expect(stopped).toBe(false);
    g.open();
    await stopping;
    const [run] = await runs("long");
    expect(run).toMatchObject({ outcome: "failed" });
    expect(run!.error).toMatch(/Stopped before finishing/);
    await s.trigger("long");
    expect((await runs("long")).length).toBe(1);
  });

  it("two sidecars racing for one slot: one runs, the other records skipped", async () => {
    const other = await openDatabase(parseConfig({ DATABASE_URL: tdb.url, DB_POOL_MAX: "4" }));
    extra.push(other);
    const g = gate();
    let started = 0;
    const job: JobDefinition = {
      name: "race",
      lockKey: "race_job",
      schedule: "0 0 1 1 *",
      description: "",
      run: async () => {
        started++;
        await g.opened;
        return { rows_touched: 1, detail: {} };
      },
    };
    const [a, b] = [scheduler([job]), scheduler([job], other)];
    const both = Promise.all([a.trigger("race"), b.trigger("race")]);
    await until(async () => (await runs("race")).some((r) => r.outcome === "skipped"));
    g.open();
    await both;
    expect(started).toBe(1);
    expect((await runs("race")).map((r) => r.outcome).sort()).toEqual(["skipped", "success"]);
  });
});
