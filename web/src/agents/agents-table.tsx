// The "All agents" table: each agent's status, presence, version and the version available to it (with
// the update queued for it), and for an administrator a checkbox per row and the actions that start a
// rollout for the selection or for every agent (agent-updates.tsx). The focus goes back to the button
// that opened the dialog when it closes.
import { useRef, useState } from "preact/hooks";
import { SelectAllHeader } from "../components/select-all.tsx";
import { Status } from "../components/status.tsx";
import { Link } from "../router.tsx";
import { type AgentItem, agentName, type Rollout, UpdateDialog } from "./agent-updates.tsx";
import { RelativeTime } from "../components/time.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const UPDATE_STATE: Record<string, string> = {
  queued: i18nKey("agents:updateState.queued"),
  sent: i18nKey("agents:updateState.sent"),
  started: i18nKey("agents:updateState.started"),
};

/** The version available to an agent (an arrow and words, not colour alone), or the update under way. */
export function Available({ agent }: { agent: Pick<AgentItem, "available_version" | "update" | "agent_version"> }) {
  const t = useT();
  const u = agent.update;
  const state = u && UPDATE_STATE[u.state];
  return (
    <>
      {agent.available_version ? (
        <span class="update-available">
          <span aria-hidden="true">⬆</span> {t("agents:available.version", { version: agent.available_version })}
        </span>
      ) : agent.agent_version ? (
        <span class="meta">{t("agents:available.upToDate")}</span>
      ) : (
        "—"
      )}
      {u && (
        <div class="meta update-state">
          {t("agents:available.update", { version: u.version })} {state ? t(state) : u.state}
          {u.rollout_id ? ` ${t("agents:available.rollout", { id: u.rollout_id })}` : ""}
        </div>
      )}
    </>
  );
}

export interface AgentsTableProps {
  items: readonly AgentItem[];
  canUpdate: boolean;
  onStarted: (rollout: Rollout) => void;
}

export function AgentsTable({ items, canUpdate, onStarted }: AgentsTableProps) {
  const t = useT();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  /** The dialog: the agents chosen, or "all". */
  const [dialog, setDialog] = useState<readonly AgentItem[] | "all" | undefined>();
  const opener = useRef<HTMLButtonElement | null>(null);
  const chosen = items.filter((a) => selected.has(a.id));
  const allChosen = items.length > 0 && chosen.length === items.length;
  const toggle = (id: number) => setSelected((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  const open = (e: Event, what: readonly AgentItem[] | "all") => {
    opener.current = e.currentTarget as HTMLButtonElement;
    setDialog(what);
  };
  const close = () => {
    setDialog(undefined);
    // After a rollout started the selection is cleared and "Update selected…" is disabled: then "Update all…" takes the focus.
    const back = opener.current;
    setTimeout(() => (back && !back.disabled ? back : document.getElementById("update-all"))?.focus(), 0);
  };

  return (
    <>
      {canUpdate ? (
        <div class="actions table-actions">
          <button type="button" disabled={chosen.length === 0} onClick={(e) => open(e, chosen)}>
            {t("agents:table.updateSelected", { n: chosen.length })}
          </button>
          <button type="button" id="update-all" onClick={(e) => open(e, "all")}>
            {t("agents:table.updateAll")}
          </button>
        </div>
      ) : (
        <p class="meta">{t("agents:table.needsScope")}</p>
      )}
      {dialog && (
        <UpdateDialog
          selected={dialog === "all" ? undefined : dialog}
          all={items}
          onClose={close}
          onStarted={(r) => {
            setSelected(new Set());
            onStarted(r);
          }}
        />
      )}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t("agents:all.title")}</caption>
          <thead>
            <tr>
              {canUpdate && (
                <SelectAllHeader
                  label={t("agents:table.selectAll")}
                  all={allChosen}
                  some={chosen.length > 0}
                  onToggle={() => setSelected(allChosen ? new Set() : new Set(items.map((a) => a.id)))}
                />
              )}
              <th scope="col">{t("agents:col.host")}</th>
              <th scope="col">{t("agents:col.status")}</th>
              <th scope="col">{t("agents:col.presence")}</th>
              <th scope="col">{t("agents:version")}</th>
              <th scope="col">{t("agents:col.available")}</th>
              <th scope="col">{t("agents:col.hardware")}</th>
              <th scope="col">{t("agents:col.lastSeen")}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((a) => (
              <tr key={a.id} data-agent={a.id} class={selected.has(a.id) ? "selected" : undefined}>
                {canUpdate && (
                  <td class="select" data-label={t("agents:table.select")}>
                    <input
                      type="checkbox"
                      aria-label={t("agents:table.selectOne", { name: agentName(a) })}
                      checked={selected.has(a.id)}
                      onChange={() => toggle(a.id)}
                    />
                  </td>
                )}
                <td data-label={t("agents:col.host")}>
                  <Link href={`/agents/${a.id}`}>{agentName(a)}</Link>
                </td>
                <td data-label={t("agents:col.status")}>
                  <Status value={a.status} />
                </td>
                <td data-label={t("agents:col.presence")}>
                  <Status value={a.online ? "up" : "down"} />
                </td>
                <td data-label={t("agents:version")}>{a.agent_version ?? "—"}</td>
                <td data-label={t("agents:col.available")}>
                  <Available agent={a} />
                </td>
                <td data-label={t("agents:col.hardware")}>
                  {a.hardware_id ? (
                    <Link href={`/inventory/hardware/${a.hardware_id}`}>{a.hardware_name ?? `#${a.hardware_id}`}</Link>
                  ) : (
                    "—"
                  )}
                </td>
                <td data-label={t("agents:col.lastSeen")}>
                  <RelativeTime at={a.last_seen_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
