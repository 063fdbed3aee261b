// The analytics job (spec 6.7): daily at 02:30 UTC under the advisory lock analytics_job, three passes
// in order: capacity forecast, right-sizing, flap detection, each a verb of its own (one transaction
// per pass). The run reads "now" from the injected clock once and hands it to every pass, so one run
// evaluates one instant.
import { type JobDefinition, throwIfStopped } from "../jobs/job.ts";
import { forecastCapacity } from "./capacity-forecast.ts";
import { detectFlaps } from "./flap-detection.ts";
import { RIGHT_SIZING_NOTE, rightSize } from "./right-sizing.ts";

export const analyticsJob: JobDefinition = {
  name: "analytics",
  lockKey: "analytics_job",
  schedule: "30 2 * * *",
  description:
    "Capacity forecast (14-day least squares of disk and memory), right-sizing (30-day CPU and memory), flap detection (30-minute windows).",
  async run({ ctx, signal }) {
    const now = ctx.clock.now();
    const capacity = await forecastCapacity({ ctx, input: { now } });
    throwIfStopped(signal);
    const rightSizing = await rightSize({ ctx, input: { now } });
    throwIfStopped(signal);
    const flaps = await detectFlaps({ ctx, input: { now } });
    const rows_touched =
      capacity.upserted +
      capacity.removed +
      rightSizing.recommendations +
      rightSizing.removed +
      flaps.opened +
      flaps.recorded_resolved +
      flaps.updated +
      flaps.resolved;
    return {
      rows_touched,
      detail: {
        evaluated_at: now.toISOString(),
        capacity_forecast: capacity,
        right_sizing: { ...rightSizing, note: RIGHT_SIZING_NOTE },
        flap_detection: flaps,
      },
    };
  },
};
