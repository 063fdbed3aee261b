// One check result recorded as the runner records it (recordMonitorResults: the monitor row, its state
// change event and NOTIFY `monitors`, in one transaction), for tests that need a real state change.
import { cryptoRandom, systemClock } from "../../shared/clock.ts";
import { recordCheckResults } from "../../shared/verbs/monitors/run/record-results.ts";
import { systemContext } from "../../shared/verbs/verb-context.ts";
import type { TestApp } from "./app.ts";

export function recordResult(t: Pick<TestApp, "runtime">, monitorId: number, up: boolean) {
  return recordCheckResults({
    ctx: systemContext({ db: t.runtime.database.db, clock: systemClock, random: cryptoRandom }),
    input: {
      results: [
        {
          monitor_id: monitorId,
          checked_at: new Date().toISOString(),
          up,
          latency_ms: null,
          samples: [],
          msg: up ? "ok" : "refused",
          source: "server",
        },
      ],
    },
  });
}
