// Create and edit a monitor (/monitors/new, /monitors/<id>/edit): name, check type (fixed once created: the
// API refuses a change), host, the inventory node it watches (a search picker per kind), the check type's
// config (check-fields.tsx), schedule and retries, the agent that runs it or the vantage points and
// quorum (vantage-fields.tsx), the group it belongs to, enabled. A push or group type has no host, no
// agent and no vantage points (docs/adr/0434), so those fields are not shown for it. The API's 422 is shown
// on each field, nested config keys included. An edit sends If-Match with the version it loaded, so a
// concurrent change is a 412 shown with "Load their version", never overwritten.
import { SaveBar } from "../components/save-bar.tsx";
import { useEffect, useState } from "preact/hooks";
import { anyApi, api, ok } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice, TextInput } from "../components/field.tsx";
import { RefPicker, type RefSource } from "../components/ref-picker.tsx";
import { Link, navigate } from "../router.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { type CheckType, CHECK_TYPES, configBody, configValues, type ConfigValues } from "./check-config.ts";
import { DEFAULT_INTERVAL_SECS, sourceOf } from "../../../shared/domain/monitors/check-types.ts";
import { majority } from "../../../shared/domain/monitors/quorum.ts";
import { revealPushUrl } from "./push-url.tsx";
import { CheckFields } from "./check-fields.tsx";
import { TARGETS } from "./target-kinds.ts";
import { type VantageDraft, VantageFields } from "./vantage-fields.tsx";

// Its noun is given in the active language where the picker is drawn.
const AGENTS: RefSource = { listPath: "/api/v1/agents", itemPath: "/api/v1/agents/{agent_id}", idParam: "agent_id", noun: "agent" };

interface Draft {
  name: string;
  check_type: CheckType;
  host: string;
  target_type: string;
  target_id: string;
  probe_agent_id: string;
  vantage: VantageDraft;
  group_id: string;
  interval_secs: string;
  max_retries: string;
  retry_interval_secs: string;
  enabled: boolean;
  badge_public: boolean;
}

const EMPTY: Draft = {
  name: "",
  check_type: "http",
  host: "",
  target_type: "",
  target_id: "",
  probe_agent_id: "",
  vantage: { agent_ids: [], sidecar: true, quorum: "" },
  group_id: "",
  interval_secs: String(DEFAULT_INTERVAL_SECS),
  max_retries: "0",
  retry_interval_secs: "",
  enabled: true,
  badge_public: false,
};
const text = (v: number | string | null | undefined) => (v == null ? "" : String(v));
/** A number as a number; anything else as typed, so the API's 422 names the field. */
const num = (raw: string) => (Number.isFinite(Number(raw)) ? Number(raw) : raw);

export function MonitorForm({ id }: { id?: string | undefined }) {
  const t = useT();
  const creating = id === undefined;
  const session = useSession();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [config, setConfig] = useState<ConfigValues>({});
  const [kept, setKept] = useState<Record<string, unknown>>({});
  const [version, setVersion] = useState<number | undefined>();
  const [conflict, setConflict] = useState(false);
  const submit = useSubmit();
  const loaded = useLoad(
    async () => (creating ? undefined : ok(api.GET("/api/v1/monitors/{monitor_id}", { params: { path: { monitor_id: id } } }))),
    [id],
  );
  // The groups a monitor can join (at most 100, by name; the API refuses a cycle with a 422 on the field).
  const groups = useLoad(
    async () => (await ok(api.GET("/api/v1/monitors", { params: { query: { check_type: "group", limit: "100", sort: "name" } } }))).items,
    [],
  );

  useEffect(() => {
    const m = loaded.data;
    if (!m) return;
    const type = m.check_type;
    setDraft({
      name: m.name,
      check_type: type,
      host: m.host,
      target_type: m.target_type ?? "",
      target_id: text(m.target_id),
      probe_agent_id: text(m.probe_agent_id),
      // A stored quorum that is the majority shows as empty (the default), so it follows the points.
      vantage: {
        agent_ids: m.vantage_agent_ids,
        sidecar: m.vantage_sidecar,
        quorum: m.quorum === majority(m.vantage_agent_ids.length + (m.vantage_sidecar ? 1 : 0)) ? "" : text(m.quorum),
      },
      group_id: text(m.group_id),
      interval_secs: text(m.interval_secs),
      max_retries: text(m.max_retries),
      retry_interval_secs: text(m.retry_interval_secs),
      enabled: m.enabled,
      badge_public: m.badge_public,
    });
    const c = configValues(type, m.config);
    setConfig(c.values);
    setKept(c.kept);
    // The server's ETag is updated_at in epoch ms (functions/routes/monitors/monitor-routes.ts).
    setVersion(Date.parse(m.updated_at));
    setConflict(false);
  }, [loaded.data]);

  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  // Only a probe type has a host and may run through an agent.
  const probed = sourceOf(draft.check_type) === "probe";

  // A picked node's address becomes the host while none is typed. Reading it is only a convenience: when
  // it fails the picker shows why, and the host is typed by hand.
  const pickTarget = (target_id: string) => {
    set({ target_id });
    const kind = TARGETS[draft.target_type];
    if (!kind || target_id === "" || draft.host.trim() !== "") return;
    ok(anyApi.GET(kind.source.itemPath, { params: { path: { [kind.source.idParam]: target_id } } })).then(
      (row) => {
        const address = (row as Record<string, unknown>)[kind.address];
        if (typeof address !== "string" || address === "") return;
        const host = address.replace(/\/\d+$/, "");
        setDraft((d) => (d.host.trim() === "" && d.target_id === target_id ? { ...d, host } : d));
      },
      () => undefined,
    );
  };

  const send = (e: Event) => {
    e.preventDefault();
    void submit.run(async () => {
      setConflict(false);
      const cfg = configBody(draft.check_type, config, kept);
      let host = probed ? draft.host.trim() : "";
      // An http check's host defaults to its URL's host: typing the URL once is enough.
      if (host === "" && draft.check_type === "http" && typeof cfg.url === "string" && URL.canParse(cfg.url))
        host = new URL(cfg.url).hostname;
      const body = {
        name: draft.name.trim(),
        // A push or group monitor has no host and no prober (docs/adr/0434).
        ...(probed ? { host, probe_agent_id: draft.probe_agent_id === "" ? null : num(draft.probe_agent_id) } : {}),
        config: cfg,
        enabled: draft.enabled,
        badge_public: draft.badge_public,
        target_type: draft.target_type === "" ? null : draft.target_type,
        target_id: draft.target_type === "" || draft.target_id === "" ? null : num(draft.target_id),
        vantage_agent_ids: probed ? draft.vantage.agent_ids : [],
        vantage_sidecar: draft.vantage.sidecar,
        quorum:
          !probed || draft.vantage.agent_ids.length === 0 || draft.vantage.quorum.trim() === "" ? null : num(draft.vantage.quorum.trim()),
        group_id: draft.group_id === "" ? null : num(draft.group_id),
        ...(draft.interval_secs.trim() === "" ? {} : { interval_secs: num(draft.interval_secs.trim()) }),
        ...(draft.max_retries.trim() === "" ? {} : { max_retries: num(draft.max_retries.trim()) }),
        ...(draft.retry_interval_secs.trim() === ""
          ? creating
            ? {}
            : { retry_interval_secs: null }
          : { retry_interval_secs: num(draft.retry_interval_secs.trim()) }),
      };
      try {
        // The body's types are the API's; values typed wrong on purpose reach it as typed, for its 422.
        const saved = creating
          ? await ok(api.POST("/api/v1/monitors", { body: { ...body, check_type: draft.check_type } as never }))
          : await ok(
              api.PATCH("/api/v1/monitors/{monitor_id}", {
                params: { path: { monitor_id: id } },
                body: body as never,
                headers: version !== undefined ? { "If-Match": `W/"${version}"` } : {},
              }),
            );
        // A push monitor's URL is answered this once: its page shows it (push-url.tsx).
        const pushUrl = (saved as { push_url?: string }).push_url;
        if (pushUrl) revealPushUrl(saved.id, pushUrl);
        navigate(`/monitors/${saved.id}`);
      } catch (err) {
        if (err instanceof ApiProblem && err.status === 412) setConflict(true);
        throw err;
      }
    });
  };

  if (!session.can("write:monitors")) return <Notice kind="error">{t("monitoring:form.forbidden")}</Notice>;
  if (!creating && loaded.error !== undefined) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  if (!creating && !loaded.data) return <p aria-busy="true">{t("common:loading")}</p>;
  const f = submit.fields;
  const target = TARGETS[draft.target_type];
  return (
    <section aria-labelledby="form-title" class="form-page monitor-form">
      <p class="crumbs">
        <Link href="/">{t("monitoring:overview.crumb")}</Link>
        {!creating && (
          <>
            {" "}
            / <Link href={`/monitors/${id}`}>{loaded.data!.name}</Link>
          </>
        )}
      </p>
      <h1 id="form-title">{creating ? t("monitoring:form.new") : t("monitoring:form.edit", { name: loaded.data!.name })}</h1>
      <form onSubmit={send} noValidate>
        <TextInput
          id="monitor-name"
          label={t("monitoring:form.name")}
          value={draft.name}
          error={f.name}
          onValue={(name) => set({ name })}
        />
        <Field
          id="monitor-check-type"
          label={t("monitoring:form.checkType")}
          error={f.check_type}
          {...(creating ? {} : { hint: t("monitoring:form.checkTypeFixed") })}
        >
          {(a11y) => (
            <select
              {...a11y}
              value={draft.check_type}
              disabled={!creating}
              onChange={(e) => set({ check_type: (e.currentTarget as HTMLSelectElement).value as CheckType })}
            >
              {CHECK_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          )}
        </Field>
        {probed && (
          <TextInput
            id="monitor-host"
            label={t("monitoring:form.host")}
            value={draft.host}
            error={f.host}
            hint={draft.check_type === "http" ? t("monitoring:form.hostHintHttp") : t("monitoring:form.hostHint")}
            onValue={(host) => set({ host })}
          />
        )}
        <Field id="monitor-target-type" label={t("monitoring:form.watches")} error={f.target_type} hint={t("monitoring:form.watchesHint")}>
          {(a11y) => (
            <select
              {...a11y}
              value={draft.target_type}
              onChange={(e) => set({ target_type: (e.currentTarget as HTMLSelectElement).value, target_id: "" })}
            >
              <option value="">{t("monitoring:form.noTarget")}</option>
              {Object.entries(TARGETS).map(([k, kind]) => (
                <option key={k} value={k}>
                  {t(kind.label)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {target && (
          <Field key={draft.target_type} id="monitor-target" label={t(target.label)} error={f.target_id}>
            {(a11y) => <RefPicker source={target.source} value={draft.target_id} onValue={pickTarget} a11y={a11y} />}
          </Field>
        )}
        <CheckFields type={draft.check_type} values={config} onValues={(c) => setConfig((old) => ({ ...old, ...c }))} errors={f} />
        <TextInput
          id="monitor-interval"
          label={draft.check_type === "push" ? t("monitoring:form.pushEvery") : t("monitoring:form.checkEvery")}
          inputMode="numeric"
          value={draft.interval_secs}
          error={f.interval_secs}
          hint={t("monitoring:form.intervalHint")}
          onValue={(interval_secs) => set({ interval_secs })}
        />
        <TextInput
          id="monitor-retries"
          label={t("monitoring:form.retries")}
          inputMode="numeric"
          value={draft.max_retries}
          error={f.max_retries}
          hint={t("monitoring:form.retriesHint")}
          onValue={(max_retries) => set({ max_retries })}
        />
        <TextInput
          id="monitor-retry-interval"
          label={t("monitoring:form.retryEvery")}
          inputMode="numeric"
          value={draft.retry_interval_secs}
          error={f.retry_interval_secs}
          hint={t("monitoring:form.retryEveryHint")}
          onValue={(retry_interval_secs) => set({ retry_interval_secs })}
        />
        {probed && (
          <Field id="monitor-agent" label={t("monitoring:form.agent")} error={f.probe_agent_id} hint={t("monitoring:form.agentHint")}>
            {(a11y) => (
              <RefPicker
                source={{ ...AGENTS, noun: t("monitoring:form.agentNoun") }}
                value={draft.probe_agent_id}
                onValue={(probe_agent_id) => set({ probe_agent_id })}
                a11y={a11y}
              />
            )}
          </Field>
        )}
        {probed && <VantageFields draft={draft.vantage} onDraft={(c) => set({ vantage: { ...draft.vantage, ...c } })} errors={f} />}
        <Field id="monitor-group" label={t("monitoring:form.group")} error={f.group_id} hint={t("monitoring:form.groupHint")}>
          {(a11y) => (
            <select {...a11y} value={draft.group_id} onChange={(e) => set({ group_id: (e.currentTarget as HTMLSelectElement).value })}>
              <option value="">{t("monitoring:form.noGroup")}</option>
              {(groups.data ?? [])
                .filter((g) => String(g.id) !== id)
                .map((g) => (
                  <option key={g.id} value={String(g.id)}>
                    {g.name}
                  </option>
                ))}
            </select>
          )}
        </Field>
        {groups.error !== undefined && <Notice kind="error">{messageOf(groups.error)}</Notice>}
        <label class="check row">
          <input type="checkbox" checked={draft.enabled} onChange={() => set({ enabled: !draft.enabled })} /> {t("monitoring:form.enabled")}
        </label>
        <label class="check row">
          <input type="checkbox" checked={draft.badge_public} onChange={() => set({ badge_public: !draft.badge_public })} />{" "}
          {t("monitoring:form.badgePublic")}
        </label>
        <SaveBar
          error={submit.error}
          conflict={conflict}
          onLoadTheirs={() => loaded.reload()}
          busy={submit.busy}
          label={creating ? t("monitoring:form.create") : t("monitoring:form.save")}
        />
      </form>
    </section>
  );
}
