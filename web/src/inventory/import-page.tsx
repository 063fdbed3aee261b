// The bulk import of a list (docs/csv-import.md): CSV pasted or read from a file, checked with a dry run
// (POST {list}/import.csv?dry_run=true) whose per-row report shows what each row would do (created,
// updated, unchanged, or the error with its column and reason), then applied in one transaction. A refused
// apply shows the same report from the 422: nothing was changed. Reached from every list's "Import".
import { useState } from "preact/hooks";
import { cookie } from "../api/client.ts";
import { ApiProblem, type ErrorBody } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { GROUP_TITLES } from "../shell/group-titles.ts";
import type { Group } from "./types.ts";

interface ReportRow {
  row: number;
  line: number;
  action: "created" | "updated" | "unchanged" | "error";
  id: number | null;
  errors: { column: string; field: string; message: string }[];
}

interface Report {
  dry_run: boolean;
  applied: boolean;
  totals: { rows: number; created: number; updated: number; unchanged: number; error: number };
  rows: ReportRow[];
}

const ACTIONS: Record<ReportRow["action"], string> = {
  created: i18nKey("csv-import:action.created"),
  updated: i18nKey("csv-import:action.updated"),
  unchanged: i18nKey("csv-import:action.unchanged"),
  error: i18nKey("csv-import:action.error"),
};

/** Rows the table shows at once (the totals count them all). */
const SHOWN = 500;

/** Posts the text; a refused apply's 422 still carries the report, which is answered like a dry run's. */
async function postCsv(listPath: string, text: string, dryRun: boolean): Promise<{ report: Report; refused?: string }> {
  const res = await fetch(`${listPath}/import.csv${dryRun ? "?dry_run=true" : ""}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "text/csv", "X-CSRF-Token": cookie("svc_csrf") ?? "" },
    body: text,
  });
  const body = (await res.json().catch(() => undefined)) as (ErrorBody & { report?: Report; summary?: string }) | Report | undefined;
  if (res.ok) return { report: body as Report };
  const error = body as (ErrorBody & { report?: Report; summary?: string }) | undefined;
  if (error?.report) return { report: error.report, refused: error.summary };
  throw new ApiProblem(res.status, error, res.headers.get("Retry-After"));
}

export function ImportPage({ group }: { group: Group }) {
  const t = useT();
  const title = t(GROUP_TITLES[group.key]);
  const [text, setText] = useState("");
  const [report, setReport] = useState<Report | undefined>();
  const [checked, setChecked] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [refused, setRefused] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const base = `/inventory/${group.key}`;

  const edit = (value: string) => {
    setText(value);
    setReport(undefined);
    setChecked(undefined);
    setRefused(undefined);
  };
  const pick = async (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (file) edit(await file.text());
  };
  const send = async (dryRun: boolean) => {
    setBusy(true);
    setError(undefined);
    setRefused(undefined);
    try {
      const answer = await postCsv(group.listPath, text, dryRun);
      setReport(answer.report);
      setRefused(answer.refused && t("csv-import:refused"));
      setChecked(dryRun ? text : undefined);
    } catch (err) {
      setReport(undefined);
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  // Apply is offered once a dry run of this very text found no error.
  const canApply = report?.dry_run === true && checked === text && report.totals.error === 0 && !busy;
  const totals = report?.totals;
  const counts = {
    rows: totals?.rows ?? 0,
    created: totals?.created ?? 0,
    updated: totals?.updated ?? 0,
    unchanged: totals?.unchanged ?? 0,
    errors: totals?.error ?? 0,
  };

  return (
    <section aria-labelledby="import-title">
      <header class="page-head">
        <h1 id="import-title">{t("csv-import:title", { list: title })}</h1>
        <Link class="button" href={base}>
          {t("csv-import:back", { list: title })}
        </Link>
      </header>
      <p>{t("csv-import:intro")}</p>
      <ul class="hint">
        <li>{t("csv-import:hint.columns")}</li>
        <li>{t("csv-import:hint.references")}</li>
        <li>{t("csv-import:hint.lists")}</li>
        <li>{t("csv-import:hint.update")}</li>
      </ul>
      <form
        class="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void send(true);
        }}
      >
        <label for="import-file">{t("csv-import:file")}</label>
        <input id="import-file" type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void pick(e)} />
        <label for="import-text">{t("csv-import:paste")}</label>
        <textarea
          id="import-text"
          rows={10}
          spellcheck={false}
          value={text}
          placeholder={t("csv-import:placeholder")}
          onInput={(e) => edit((e.currentTarget as HTMLTextAreaElement).value)}
        />
        <div class="actions">
          <button type="submit" class="button" disabled={busy || text.trim() === ""}>
            {t("csv-import:check")}
          </button>
          <button type="button" class="button primary" disabled={!canApply} onClick={() => void send(false)}>
            {t("csv-import:apply")}
          </button>
        </div>
      </form>
      {busy && <p aria-live="polite">{t("csv-import:working")}</p>}
      {error !== undefined && <Notice kind="error">{error}</Notice>}
      {refused !== undefined && <Notice kind="error">{refused}</Notice>}
      {report?.applied && (
        <Notice kind="success">{t("csv-import:applied", { created: report.totals.created, updated: report.totals.updated })}</Notice>
      )}
      {totals && (
        <>
          <p role="status" data-testid="import-totals">
            {report.dry_run ? t("csv-import:totals.dryRun", counts) : t("csv-import:totals.done", counts)}
          </p>
          <table class="list" aria-label={t("csv-import:table")}>
            <thead>
              <tr>
                <th scope="col">{t("csv-import:col.row")}</th>
                <th scope="col">{t("csv-import:col.action")}</th>
                <th scope="col">{t("csv-import:col.record")}</th>
                <th scope="col">{t("csv-import:col.reason")}</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.slice(0, SHOWN).map((r) => (
                <tr key={r.row} data-action={r.action}>
                  <td>{r.row}</td>
                  <td>{t(ACTIONS[r.action])}</td>
                  <td>
                    {r.id !== null && r.action !== "error" && report.applied ? (
                      <Link href={`${base}/${r.id}`}>#{r.id}</Link>
                    ) : r.id !== null ? (
                      `#${r.id}`
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>
                    {r.errors.length === 0
                      ? "—"
                      : r.errors.map((e) => (
                          <div key={`${e.column}:${e.message}`}>
                            {e.column ? <code>{e.column}</code> : null} {e.message}
                          </div>
                        ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {report.rows.length > SHOWN && <p>{t("csv-import:more", { count: report.rows.length - SHOWN })}</p>}
        </>
      )}
    </section>
  );
}
