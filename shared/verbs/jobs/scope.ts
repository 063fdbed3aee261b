// Its own module so that what only needs the scope (backups/store.ts, which shared/deps.ts types) does
// not import job.ts, which imports shared/deps.ts.
/** Who may run a job, and so the scope of the verbs a job's body calls (the system actor holds every scope). */
export const JOBS_SCOPE = "admin:*";
