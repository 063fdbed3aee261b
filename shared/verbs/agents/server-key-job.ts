// The server_key_rotation job: hourly, ends a server-key rotation whose overlap has passed.
import type { JobDefinition } from "../jobs/job.ts";
import { settleServerKeyRotation } from "./server-key.ts";

export const serverKeyRotationJob: JobDefinition = {
  name: "server_key_rotation",
  lockKey: "server_key_rotation_job",
  schedule: "17 * * * *",
  description: "Promotes the successor of the agents' server key once its overlap window has passed, retiring the old key.",
  async run({ ctx }) {
    const { promoted } = await settleServerKeyRotation({ ctx });
    return { rows_touched: promoted ? 2 : 0, detail: { promoted } };
  },
};
