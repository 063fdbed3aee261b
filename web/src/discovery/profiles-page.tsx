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
import { useLoad } from "../use-load.ts";
import { DiscoveryTabs } from "./discovery-tabs.tsx";
import { type Profile, ProfileForm } from "./profile-form.tsx";

const stateOf = (p: Profile) => (!p.enabled ? "disabled" : p.paused_at ? "paused" : "active");

export function ProfilesPage() {
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
    confirm(`Delete the profile "${p.name}"? Its past scans stay.`) &&
    act.run(async () => {
      await ok(api.DELETE("/api/v1/discovery/profiles/{profile_id}", path(p.id)));
      profiles.reload();
    });

  const list = profiles.data?.items ?? [];
  const edited = list.find((p) => p.id === editing);
  return (
    <section aria-labelledby="profiles-title">
      <header class="page-head">
        <h1 id="profiles-title">Discovery profiles</h1>
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
      <h2>Profiles</h2>
      <LoadError error={profiles.error} what="the discovery profiles" />
      <Notice kind="error">{act.error}</Notice>
      {started && (
        <p class="notice notice-success" role="status">
          Scan {started.job} of "{started.profile}" is queued. <Link href={`/discovery?job=${started.job}`}>Open scan {started.job}</Link>
        </p>
      )}
      {profiles.data && list.length === 0 && <p class="empty">No profiles yet.</p>}
      <Table
        caption="Discovery profiles"
        columns={["Name", "Targets", "Probes", "Schedule", "Last run", "State"]}
        actions={canWrite || canDelete}
      >
        {list.map((p) => (
          <tr key={p.id} data-profile={p.id}>
            <td data-label="Name">
              {p.name}
              {p.managed_by && <div class="meta">managed by the {p.managed_by}</div>}
            </td>
            <td data-label="Targets">
              {p.targets.join(", ") || "—"}
              {p.exclude.length > 0 && <div class="meta">not {p.exclude.join(", ")}</div>}
            </td>
            <td data-label="Probes">
              {p.scan_types.join(", ")}
              {p.tcp_ports.length > 0 && <div class="meta">ports {p.tcp_ports.join(", ")}</div>}
            </td>
            <td data-label="Schedule">
              {p.schedule_cron ? (
                <>
                  <code>{p.schedule_cron}</code> UTC
                  <div class="meta">
                    next <RelativeTime at={p.next_run_at} />
                  </div>
                </>
              ) : (
                "by hand"
              )}
            </td>
            <td data-label="Last run">
              <RelativeTime at={p.last_run} />
            </td>
            <td data-label="State">
              <Status value={stateOf(p)} />
            </td>
            {(canWrite || canDelete) && (
              <td>
                <span class="actions">
                  {canWrite && (
                    <button
                      type="button"
                      disabled={act.busy || !p.enabled}
                      title={p.enabled ? undefined : "Enable the profile to run it"}
                      onClick={() => void run(p)}
                    >
                      Run now
                    </button>
                  )}
                  {canWrite && p.schedule_cron && (
                    <button type="button" disabled={act.busy} onClick={() => void pause(p)}>
                      {p.paused_at ? "Resume" : "Pause"}
                    </button>
                  )}
                  {canWrite && (
                    <button type="button" disabled={act.busy} onClick={() => setEditing(p.id)}>
                      Edit
                    </button>
                  )}
                  {canDelete && (
                    <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(p)}>
                      Delete
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
