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

export function BackupsSection() {
  const archives = useLoad(() => ok(api.GET("/api/v1/admin/db/snapshots")), []);
  const take = useSubmit();
  const [done, setDone] = useState<string | undefined>();

  const run = () =>
    take.run(async () => {
      setDone(undefined);
      const answer = await ok(api.POST("/api/v1/admin/db/backup"));
      const b = answer.backup;
      setDone(`Backup ${b.filename} taken (${b.size_mb} MB, ${b.verified_at ? "verified" : "not verified"}).`);
      archives.reload();
    });

  if (archives.error !== undefined) return <LoadError error={archives.error} what="the backups" />;
  const list = [...(archives.data?.snapshots ?? [])].reverse();
  return (
    <>
      <div class="page-head">
        <h2>Backups</h2>
        <button type="button" class="primary" disabled={take.busy} onClick={() => void run()}>
          {take.busy ? "Taking a backup…" : "Take a backup now"}
        </button>
      </div>
      <Notice kind="error">{take.error}</Notice>
      <Notice kind="success">{done}</Notice>
      {archives.data && list.length === 0 && <p class="empty">No archives on disk yet.</p>}
      <Table caption="Backups and snapshots" columns={["File", "Kind", "Size", "Taken", "Verified", "Copy"]}>
        {list.map((b) => (
          <tr key={b.filename}>
            <td data-label="File">
              <a href={`/api/v1/admin/db/backups/${encodeURIComponent(b.filename)}`} download={b.filename}>
                {b.filename}
              </a>
            </td>
            <td data-label="Kind">
              {b.kind} <span class="meta">({b.trigger})</span>
            </td>
            <td data-label="Size">{b.size_mb} MB</td>
            <td data-label="Taken">
              <RelativeTime at={b.created_at} />
            </td>
            <td data-label="Verified">
              <RelativeTime at={b.verified_at} />
            </td>
            <td data-label="Copy">{b.s3_key ? <code>{b.s3_key}</code> : "local only"}</td>
          </tr>
        ))}
      </Table>
      {archives.data && (
        <p class="meta">
          To restore: <code>{archives.data.restore_command}</code>. {archives.data.restore_note}
        </p>
      )}
    </>
  );
}
