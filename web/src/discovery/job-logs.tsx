// A scan job's log (GET /discovery/jobs/{id}/logs, oldest first), filtered by level; reloaded when the
// discovery stream reports the job moved (`refresh` changes).
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";

const LEVELS = ["", "DEBUG", "INFO", "WARNING", "ERROR"] as const;
type Level = (typeof LEVELS)[number];
const LIMIT = 500;

export function JobLogs({ jobId, refresh }: { jobId: number; refresh: number }) {
  const t = useT();
  const [level, setLevel] = useState<Level>("");
  const logs = useLoad(
    () =>
      ok(
        api.GET("/api/v1/discovery/jobs/{job_id}/logs", {
          params: { path: { job_id: String(jobId) }, query: { limit: String(LIMIT), ...(level ? { level } : {}) } },
        }),
      ),
    [jobId, level, refresh],
  );
  const entries = logs.data ?? [];
  return (
    <section class="job-logs" aria-labelledby={`job-log-${jobId}`}>
      <div class="page-head">
        <h2 id={`job-log-${jobId}`}>{t("discovery:log.title", { id: jobId })}</h2>
        <label class="filter">
          {t("discovery:log.level")}
          <select value={level} onChange={(e) => setLevel((e.currentTarget as HTMLSelectElement).value as Level)}>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l === "" ? t("discovery:log.all") : l.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
      </div>
      {logs.error !== undefined && <Notice kind="error">{messageOf(logs.error)}</Notice>}
      {logs.data && entries.length === 0 && (
        <p class="empty">{level ? t("discovery:log.noneAt", { level: level.toLowerCase() }) : t("discovery:log.none")}</p>
      )}
      {entries.length > 0 && (
        <ol class="log-lines" aria-label={t("discovery:log.entries", { id: jobId })}>
          {entries.map((e) => (
            <li key={e.id} class={`log-${e.level.toLowerCase()}`}>
              <time dateTime={e.timestamp}>{new Date(e.timestamp).toLocaleTimeString()}</time> <span class="log-level">{e.level}</span>
              {e.phase && <span class="meta"> [{e.phase}]</span>} {e.message}
            </li>
          ))}
        </ol>
      )}
      {entries.length === LIMIT && <p class="meta">{t("discovery:log.first", { count: LIMIT })}</p>}
    </section>
  );
}
