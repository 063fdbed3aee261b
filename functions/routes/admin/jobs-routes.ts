// /admin/jobs (ours, not in the catalogue; docs/architecture.md, API contracts): the scheduled jobs with their last runs, and
// running one now under its advisory lock.
import type { Hono } from "hono";
import { JobList, JobNameParam, JobRun, JobsQuery } from "../../../shared/schemas/jobs.ts";
import { listJobs } from "../../../shared/verbs/jobs/list-jobs.ts";
import { triggerJob } from "../../../shared/verbs/jobs/trigger-job.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

export function jobsRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/admin/jobs",
      tag: "admin",
      scope: listJobs.scope,
      summary: "Scheduled jobs (analytics, retention): schedule, next run, last run; and the recent runs, newest first",
      description:
        "`limit` (default 25, at most 100) bounds `runs`; `job` keeps only that job's runs. Outcomes: running, success, failed, skipped (another run held the lock).",
      query: JobsQuery,
      response: { schema: JobList },
    },
    async (c, { query, reply }) => reply(await listJobs({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/admin/jobs/:name/run",
      tag: "admin",
      scope: triggerJob.scope,
      summary: "Run a job now under its advisory lock and answer the run record",
      description:
        'Runs to the end before answering. A job that fails answers 200 with outcome "failed" and its error. 409 when another run holds the job\'s lock (the attempt is recorded as skipped and returned in `run`). Audited.',
      params: JobNameParam,
      response: { schema: JobRun },
      errors: [409],
    },
    async (c, { params, reply }) => {
      const deps = c.get("deps");
      return reply(
        await triggerJob({ ctx: verbContext(c), input: { name: params.name, database: deps.database, logger: deps.logger, deps } }),
      );
    },
  );
}
