// Discovery profiles: scans kept with a name and an optional schedule. Create one, change it in place,
// pause and resume its schedule, run it now (the job then shows on the scans screen), delete it.
import { useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { LoadError } from "../settings/load-error.tsx";
import { RelativeTime } from "../components/time.tsx";
import { Table } from "../settings/table.tsx";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { DiscoveryTabs } from "./discovery-tabs.tsx";
import { type Profile, ProfileForm } from "./profile-form.tsx";

const stateOf = (p: Profile) => (!p.enabled ? "disabled" : p.paused_at ? "paused" : "active");

export function ProfilesPage() {
  useT();
  const session = useSession();
  const canWrite = session.can("write:discovery");
  const canDelete = session.can("delete:discovery");
  const profiles = useLoad(() => ok(api.GET("/api/v1/discovery/profiles", { params: { query: { limit: "100", sort: "name" } } })), []);
  const [editing, setEditing] = useState<number | undefined>();
  const [started, setStarted] = useState<{ job: number; profile: string } | undefined>();
  const act = useSubmit();
  const path = (id: number) => ({ params: { path: { profile_id: String(id) } } });

  const run = (p: Profile) =>
    act.run(async () => {
      setStarted(undefined);
      const job = await ok(api.POST("/api/v1/discovery/profiles/{profile_id}/run", path(p.id)));
      setStarted({ job: job.id, profile: p.name });
      profiles.reload();
    });
  const pause = (p: Profile) =>
    act.run(async () => {
      if (p.paused_at) await ok(api.POST("/api/v1/discovery/profiles/{profile_id}/resume", path(p.id)));
      else await ok(api.POST("/api/v1/discovery/profiles/{profile_id}/pause", path(p.id)));
      profiles.reload();
    });
  const remove = (p: Profile) =>
    confirm(t("discovery:profiles.confirmDelete", { name: p.name })) &&
    act.run(async () => {
      await ok(api.DELETE("/api/v1/discovery/profiles/{profile_id}", path(p.id)));
      profiles.reload();
    });

  const list = profiles.data?.items ?? [];
  const edited = list.find((p) => p.id === editing);
  return (
    <section aria-labelledby="profiles-title">
      <header class="page-head">
        <h1 id="profiles-title">{t("discovery:profiles.title")}</h1>
      </header>
      <DiscoveryTabs current="/discovery/profiles" />
      {canWrite && !edited && <ProfileForm onDone={() => profiles.reload()} />}
      {canWrite && edited && (
        <ProfileForm
          key={edited.id}
          profile={edited}
          onCancel={() => setEditing(undefined)}
          onDone={() => {
            setEditing(undefined);
            profiles.reload();
          }}
        />
      )}
      <h2>{t("discovery:profiles.heading")}</h2>
      <LoadError error={profiles.error} what={t("discovery:profiles.what")} />
      <Notice kind="error">{act.error}</Notice>
      {started && (
        <p class="notice notice-success" role="status">
          {t("discovery:profiles.queued", { job: started.job, profile: started.profile })}{" "}
          <Link href={`/discovery?job=${started.job}`}>{t("discovery:profiles.openScan", { job: started.job })}</Link>
        </p>
      )}
      {profiles.data && list.length === 0 && <p class="empty">{t("discovery:profiles.none")}</p>}
      <Table
        caption={t("discovery:profiles.title")}
        columns={[
          t("discovery:profile.name"),
          t("discovery:scan.targets"),
          t("discovery:scan.probes"),
          t("discovery:profiles.schedule"),
          t("discovery:profiles.lastRun"),
          t("discovery:profiles.state"),
        ]}
        actions={canWrite || canDelete}
      >
        {list.map((p) => (
          <tr key={p.id} data-profile={p.id}>
            <td data-label={t("discovery:profile.name")}>
              {p.name}
              {p.managed_by && <div class="meta">{t("discovery:profiles.managedBy", { by: p.managed_by })}</div>}
            </td>
            <td data-label={t("discovery:scan.targets")}>
              {p.targets.join(", ") || "—"}
              {p.exclude.length > 0 && <div class="meta">{t("discovery:profiles.not", { list: p.exclude.join(", ") })}</div>}
            </td>
            <td data-label={t("discovery:scan.probes")}>
              {p.scan_types.join(", ")}
              {p.tcp_ports.length > 0 && <div class="meta">{t("discovery:profiles.ports", { list: p.tcp_ports.join(", ") })}</div>}
            </td>
            <td data-label={t("discovery:profiles.schedule")}>
              {p.schedule_cron ? (
                <>
                  {/* i18n-ignore: the time zone's name */}
                  <code>{p.schedule_cron}</code> UTC
                  <div class="meta">
                    {t("discovery:profiles.next")} <RelativeTime at={p.next_run_at} />
                  </div>
                </>
              ) : (
                t("discovery:profiles.byHand")
              )}
            </td>
            <td data-label={t("discovery:profiles.lastRun")}>
              <RelativeTime at={p.last_run} />
            </td>
            <td data-label={t("discovery:profiles.state")}>
              <Status value={stateOf(p)} />
            </td>
            {(canWrite || canDelete) && (
              <td>
                <span class="actions">
                  {canWrite && (
                    <button
                      type="button"
                      disabled={act.busy || !p.enabled}
                      title={p.enabled ? undefined : t("discovery:profiles.enableToRun")}
                      onClick={() => void run(p)}
                    >
                      {t("discovery:profiles.run")}
                    </button>
                  )}
                  {canWrite && p.schedule_cron && (
                    <button type="button" disabled={act.busy} onClick={() => void pause(p)}>
                      {p.paused_at ? t("discovery:profiles.resume") : t("discovery:profiles.pause")}
                    </button>
                  )}
                  {canWrite && (
                    <button type="button" disabled={act.busy} onClick={() => setEditing(p.id)}>
                      {t("discovery:profiles.edit")}
                    </button>
                  )}
                  {canDelete && (
                    <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(p)}>
                      {t("discovery:profiles.delete")}
                    </button>
                  )}
                </span>
              </td>
            )}
          </tr>
        ))}
      </Table>
    </section>
  );
}
