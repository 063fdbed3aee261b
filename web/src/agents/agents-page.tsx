// Agents: the enrollments waiting for approval, the pairing code an agent printed looked up to its
// enrollment, approval (creating a hardware node for it, or linking it to one), every agent with its live
// presence from /agents/stream and its version (agents-table.tsx: updates of a selection or all), and the
// fleet's rollouts (rollout-progress.tsx).
import { useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice, TextInput } from "../components/field.tsx";
import { LiveBadge, useStream } from "../live.tsx";
import { useLoad } from "../use-load.ts";
import { InstallCommand } from "./install-command.tsx";
import { AgentsTable } from "./agents-table.tsx";
import { RolloutsSection } from "./rollout-progress.tsx";
import { RelativeTime } from "../components/time.tsx";
import { useT } from "../i18n/use-t.ts";

type Lookup = paths["/api/v1/agents/pairing/lookup"]["post"]["responses"][200]["content"]["application/json"];

export function AgentsPage() {
  const t = useT();
  const session = useSession();
  const canApprove = session.can("admin:agents");
  const pending = useLoad(
    () => ok(api.GET("/api/v1/agents/pending", { params: { query: { limit: "100", sort: "enrolled_at", direction: "desc" } } })),
    [],
  );
  const all = useLoad(() => ok(api.GET("/api/v1/agents", { params: { query: { limit: "100", sort: "name" } } })), []);
  /** Counts /agents/stream events (and started rollouts): the rollouts are read again on each. */
  const [events, setEvents] = useState(0);
  const [started, setStarted] = useState<string | undefined>();
  const live = useStream(
    "/api/v1/agents/stream",
    () => {
      pending.reload();
      all.reload();
      setEvents((n) => n + 1);
    },
    () => {
      pending.reload();
      all.reload();
    },
  );
  const [code, setCode] = useState("");
  const [found, setFound] = useState<Lookup | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const lookup = useSubmit();
  const approve = useSubmit();

  const find = (e: Event) => {
    e.preventDefault();
    setFound(undefined);
    setDone(undefined);
    void lookup.run(async () =>
      setFound(await ok(api.POST("/api/v1/agents/pairing/lookup", { body: { code: code.trim().toUpperCase() } }))),
    );
  };
  const decide = (agentId: number, hardwareId: number | null | undefined) =>
    approve.run(async () => {
      const body = hardwareId ? { host_link_action: "select" as const, hardware_id: hardwareId } : { host_link_action: "create" as const };
      const agent = await ok(api.POST("/api/v1/agents/{agent_id}/approve", { params: { path: { agent_id: String(agentId) } }, body }));
      const name = agent.hostname ?? t("agents:agentN", { id: agent.id });
      setDone(
        agent.hardware_name
          ? t("agents:pairing.approvedLinked", { name, hardware: agent.hardware_name })
          : t("agents:pairing.approved", { name }),
      );
      setFound(undefined);
      setCode("");
      pending.reload();
      all.reload();
    });

  return (
    <section aria-labelledby="agents-title">
      <header class="page-head">
        <h1 id="agents-title">{t("agents:title")}</h1>
        <LiveBadge state={live} />
      </header>
      {canApprove && (
        <form class="card" onSubmit={find} aria-labelledby="pairing-title">
          <h2 id="pairing-title">{t("agents:pairing.title")}</h2>
          <TextInput
            id="pairing-code"
            label={t("agents:pairing.code")}
            // i18n-ignore: the code's format, not words
            placeholder="XXXX-XXXX-XXXX"
            autoComplete="off"
            value={code}
            error={lookup.fields.code}
            onValue={setCode}
          />
          <Notice kind="error">{lookup.error}</Notice>
          <button type="submit" disabled={lookup.busy || !code.trim()}>
            {t("agents:pairing.lookUp")}
          </button>
          {found && (
            <div class="found">
              <p>
                {t("agents:pairing.agent", { id: found.agent_id })} <strong>{found.hostname ?? t("agents:pairing.unknownHost")}</strong>{" "}
                {t("agents:pairing.platform", { os: found.os ?? "?", arch: found.arch ?? "?" })} <code>{found.fingerprint}</code>
                {found.duplicate_machine_id && (
                  <>
                    {" "}
                    — <strong>{t("agents:pairing.duplicate")}</strong>
                  </>
                )}
              </p>
              <button
                type="button"
                class="primary"
                disabled={approve.busy}
                onClick={() => void decide(found.agent_id, found.proposed_hardware_id)}
              >
                {found.proposed_hardware_name
                  ? t("agents:pairing.approveLink", { hardware: found.proposed_hardware_name })
                  : t("agents:pairing.approveCreate")}
              </button>
            </div>
          )}
          <Notice kind="error">{approve.error}</Notice>
          <Notice kind="success">{done}</Notice>
        </form>
      )}
      {canApprove && <InstallCommand />}
      <h2>{t("agents:pending.title")}</h2>
      {pending.error !== undefined && <Notice kind="error">{messageOf(pending.error)}</Notice>}
      {pending.data?.items.length === 0 && (
        <p class="empty">
          {t("agents:pending.none")} {canApprove ? t("agents:pending.noneAdmin") : t("agents:pending.noneReader")}
        </p>
      )}
      <ul class="cards">
        {pending.data?.items.map((a) => (
          <li key={a.id} class="card">
            <strong>{a.hostname ?? a.name ?? t("agents:agentN", { id: a.id })}</strong>{" "}
            <span class="meta">
              {t("agents:pending.from", { os: a.os ?? "", arch: a.arch ?? "", ip: a.reported_ip ?? "?" })}{" "}
              <RelativeTime at={a.enrolled_at} />
            </span>
            <div class="meta">
              {t("agents:pending.fingerprint")} <code>{a.fingerprint}</code>. {t("agents:pending.approveHint")}
            </div>
          </li>
        ))}
      </ul>
      <h2>{t("agents:all.title")}</h2>
      {all.error !== undefined && <Notice kind="error">{messageOf(all.error)}</Notice>}
      <Notice kind="success">{started}</Notice>
      {all.data && (
        <AgentsTable
          items={all.data.items}
          canUpdate={canApprove}
          onStarted={(r) => {
            setStarted(t("agents:all.started", { id: r.id, version: r.version }));
            setEvents((n) => n + 1);
            all.reload();
          }}
        />
      )}
      <RolloutsSection canManage={canApprove} version={events} onProgress={all.reload} />
    </section>
  );
}
