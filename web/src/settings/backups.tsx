// Backups: take one now (the server dumps and verifies it), and the archives on disk, each downloadable
// (a plain link: the session cookie authorises the GET) with how to restore one.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";
import { Table } from "./table.tsx";
import { LoadError } from "./load-error.tsx";
import { RelativeTime } from "../components/time.tsx";
import { useT } from "../i18n/use-t.ts";

export function BackupsSection() {
  const t = useT();
  const archives = useLoad(() => ok(api.GET("/api/v1/admin/db/snapshots")), []);
  const take = useSubmit();
  const [done, setDone] = useState<string | undefined>();

  const run = () =>
    take.run(async () => {
      setDone(undefined);
      const answer = await ok(api.POST("/api/v1/admin/db/backup"));
      const b = answer.backup;
      setDone(
        b.verified_at
          ? t("settings:backups.takenVerified", { file: b.filename, size: b.size_mb })
          : t("settings:backups.takenUnverified", { file: b.filename, size: b.size_mb }),
      );
      archives.reload();
    });

  if (archives.error !== undefined) return <LoadError error={archives.error} what={t("settings:backups.what")} />;
  const list = [...(archives.data?.snapshots ?? [])].reverse();
  return (
    <>
      <div class="page-head">
        <h2>{t("settings:backups.title")}</h2>
        <button type="button" class="primary" disabled={take.busy} onClick={() => void run()}>
          {take.busy ? t("settings:backups.taking") : t("settings:backups.take")}
        </button>
      </div>
      <Notice kind="error">{take.error}</Notice>
      <Notice kind="success">{done}</Notice>
      {archives.data && list.length === 0 && <p class="empty">{t("settings:backups.empty")}</p>}
      <Table
        caption={t("settings:backups.caption")}
        columns={[
          t("settings:backups.file"),
          t("settings:backups.kind"),
          t("settings:backups.size"),
          t("settings:backups.taken"),
          t("settings:backups.verified"),
          t("settings:backups.copy"),
        ]}
      >
        {list.map((b) => (
          <tr key={b.filename}>
            <td data-label={t("settings:backups.file")}>
              <a href={`/api/v1/admin/db/backups/${encodeURIComponent(b.filename)}`} download={b.filename}>
                {b.filename}
              </a>
            </td>
            <td data-label={t("settings:backups.kind")}>
              {b.kind} <span class="meta">({b.trigger})</span>
            </td>
            <td data-label={t("settings:backups.size")}>{t("settings:backups.mb", { size: b.size_mb })}</td>
            <td data-label={t("settings:backups.taken")}>
              <RelativeTime at={b.created_at} />
            </td>
            <td data-label={t("settings:backups.verified")}>
              <RelativeTime at={b.verified_at} />
            </td>
            <td data-label={t("settings:backups.copy")}>{b.s3_key ? <code>{b.s3_key}</code> : t("settings:backups.localOnly")}</td>
          </tr>
        ))}
      </Table>
      {archives.data && (
        <p class="meta">
          {t("settings:backups.restore")} <code>{archives.data.restore_command}</code>. {archives.data.restore_note}
        </p>
      )}
    </>
  );
}
