// The topology: GET /graph/topology drawn with cytoscape, filtered by kind (kept in the URL), live from
// /topology/stream (a change reloads the graph, the view stays put), a selected node's details with a
// link to its page, the monitors watching it (each with its state, a link), and its blast radius (/intel/blast-radius) highlighted on demand. Past MAX_NODES it is
// drawn as groups (./clusters.ts) opened by a tap; the summary (/graph/summary: counts per kind) is drawn
// first, so a big inventory's screen shows its groups at once while the whole graph is still on its way.
// The lists under the graph are the keyboard and screen-reader way to the same selection and groups.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, ok, type paths } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSubmit } from "../auth/use-submit.ts";
import { Notice } from "../components/field.tsx";
import { Status } from "../components/status.tsx";
import { LiveBadge, useStream } from "../live.tsx";
import { TargetMonitors } from "../monitoring/target-monitors.tsx";
import { Link, navigate, type Location } from "../router.tsx";
import { useT } from "../i18n/use-t.ts";
import { useLoad } from "../use-load.ts";
import { clustersOf, drawn, drawnCount, findCluster, firstOpen, groupsHolding, summaryDrawing } from "./clusters.ts";
import { DETAIL_GROUP, isBlastKind, KINDS, MAX_NODES, type NodeKind, type TopoNode } from "./graph-data.ts";
import { GraphView } from "./graph-view.tsx";
import { KIND_LABELS, kindLabel } from "./kind-labels.ts";

type Blast = paths["/api/v1/intel/blast-radius/{asset_type}/{asset_id}"]["get"]["responses"][200]["content"]["application/json"];
const LIST_LIMIT = 200;

const detailHref = (n: TopoNode) => (DETAIL_GROUP[n.type] ? `/inventory/${DETAIL_GROUP[n.type]}/${n.ref_id}` : undefined);

export function TopologyPage({ loc }: { loc: Location }) {
  const t = useT();
  const chosen = loc.query.get("types");
  const types = (
    chosen ? chosen.split(",").filter((k): k is NodeKind => (KINDS as readonly string[]).includes(k)) : [...KINDS]
  ) as NodeKind[];
  // The route reads one comma-separated `types` (its document shows the parsed list); all kinds: none sent.
  const query = chosen && types.length < KINDS.length ? { types: [types.join(",")] as NodeKind[] } : {};
  const summary = useLoad(() => ok(api.GET("/api/v1/graph/summary", { params: { query } })), [types.join(",")]);
  // The whole graph is asked for once the summary is in (or failed), not beside it: past 100,000 objects
  // building it keeps the server busy for a second or two, and the summary must not wait behind that.
  const summaryDone = summary.data !== undefined || summary.error !== undefined;
  const topo = useLoad(
    () => (summaryDone ? ok(api.GET("/api/v1/graph/topology", { params: { query } })) : new Promise<never>(() => {})),
    [types.join(","), summaryDone],
  );
  // A burst of changes (a discovery merge) reloads once.
  const pendingReload = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const live = useStream(
    "/api/v1/topology/stream",
    () => {
      clearTimeout(pendingReload.current);
      pendingReload.current = setTimeout(() => {
        summary.reload();
        topo.reload();
      }, 300);
    },
    () => {
      summary.reload();
      topo.reload();
    },
  );
  useEffect(() => () => clearTimeout(pendingReload.current), []);

  const grouping = useMemo(() => (topo.data ? clustersOf(topo.data) : { clusters: [], leafOf: new Map() }), [topo.data]);
  const clusters = grouping.clusters;
  // The groups the user opened, for the kinds they were opened under; other kinds start from firstOpen.
  const typesKey = types.join(",");
  const [opened, setOpened] = useState<{ key: string; ids: ReadonlySet<string> } | undefined>();
  const openIds = useMemo(() => (opened?.key === typesKey ? opened.ids : firstOpen(clusters)), [opened, typesKey, clusters]);
  const data = useMemo(
    () =>
      topo.data
        ? drawn(topo.data, grouping, openIds)
        : summary.data && summary.data.counts.nodes > MAX_NODES
          ? summaryDrawing(summary.data)
          : undefined,
    [topo.data, grouping, openIds, summary.data],
  );
  /** Only the summary is drawn yet: groups cannot open until their nodes are here. */
  const partial = !topo.data;
  const [focus, setFocus] = useState<{ id: string; seq: number } | undefined>();
  const [refused, setRefused] = useState<string | undefined>();
  const [selected, setSelected] = useState<string | undefined>();
  const [blast, setBlast] = useState<Blast | undefined>();
  const [filter, setFilter] = useState("");
  const walk = useSubmit();
  const node = data?.nodes.find((n) => n.id === selected);
  const group = data?.groups.find((g) => g.id === selected);
  const idOf = useMemo(() => new Map(topo.data?.nodes.map((n) => [`${n.type}:${n.ref_id}`, n.id]) ?? []), [topo.data]);

  /** Opens `ids` (and fits the view to `focusOn`) unless the drawing would pass MAX_NODES. */
  const openGroups = (ids: readonly string[], focusOn: string): boolean => {
    const next = new Set([...openIds, ...ids]);
    const count = drawnCount(clusters, next);
    if (count > MAX_NODES) {
      const names = ids.filter((id) => !openIds.has(id)).map((id) => findCluster(clusters, id)?.label ?? id);
      setRefused(t("topology:refused", { names: names.join(", "), count, max: MAX_NODES }));
      return false;
    }
    setRefused(undefined);
    setOpened({ key: typesKey, ids: next });
    setFocus((f) => ({ id: focusOn, seq: (f?.seq ?? 0) + 1 }));
    return true;
  };
  /** Opens a closed group, or closes an open one with the groups inside it. */
  const toggle = (id: string) => {
    if (partial) return;
    if (!openIds.has(id)) return void openGroups([id], id);
    setRefused(undefined);
    const next = new Set([...openIds].filter((o) => o !== id && !o.startsWith(`${id}.`)));
    const holder = selected && (data?.parents.get(selected) ?? selected);
    if (holder && (holder === id || holder.startsWith(`${id}.`))) setSelected(undefined);
    setOpened({ key: typesKey, ids: next });
  };
  /** Selects a node found in the list, opening the groups that hide it first. */
  const reveal = (id: string) => {
    if (data?.shownAs(id) === id || openGroups(groupsHolding(grouping, id), id)) select(id);
  };
  const select = (id: string | undefined) => {
    const g = id ? data?.groups.find((x) => x.id === id) : undefined;
    if (g && !g.open) return toggle(g.id);
    setSelected(id);
    setBlast(undefined);
  };
  const setTypes = (next: NodeKind[]) => {
    const q = new URLSearchParams(loc.query);
    if (next.length === KINDS.length || next.length === 0) q.delete("types");
    else q.set("types", next.join(","));
    navigate(`${loc.path}${q.size ? `?${q}` : ""}`, { replace: true });
  };
  const showBlast = (n: TopoNode) =>
    walk.run(async () => {
      if (!isBlastKind(n.type)) return;
      setBlast(
        await ok(
          api.GET("/api/v1/intel/blast-radius/{asset_type}/{asset_id}", {
            params: { path: { asset_type: n.type, asset_id: String(n.ref_id) } },
          }),
        ),
      );
    });
  const impacted = blast
    ? [...blast.impacted_hardware, ...blast.impacted_compute_units, ...blast.impacted_services, ...blast.impacted_storage]
    : [];
  // An impacted record inside a closed group marks that group.
  const shownAs = (a: { asset_type: string; asset_id: number }) => {
    const id = idOf.get(`${a.asset_type}:${a.asset_id}`);
    return id && data?.shownAs(id);
  };
  const blastIds =
    blast && selected ? { root: selected, impacted: new Set(impacted.map(shownAs).filter((x): x is string => Boolean(x))) } : undefined;
  // Drawn nodes; a search looks through every node, also those in closed groups.
  const listed = filter
    ? (topo.data?.nodes ?? []).filter((n) => n.label.toLowerCase().includes(filter.toLowerCase()))
    : (data?.nodes ?? []);

  return (
    <section aria-labelledby="topology-title" class="topology">
      <header class="page-head">
        <h1 id="topology-title">{t("topology:title")}</h1>
        <LiveBadge state={live} />
      </header>
      <fieldset class="scopes kinds">
        <legend>{t("topology:kinds")}</legend>
        {KINDS.map((k) => (
          <label key={k} class="check">
            <input
              type="checkbox"
              checked={types.includes(k)}
              onChange={(e) => setTypes((e.currentTarget as HTMLInputElement).checked ? [...types, k] : types.filter((x) => x !== k))}
            />{" "}
            {t(KIND_LABELS[k])}
          </label>
        ))}
      </fieldset>
      {summary.error !== undefined && topo.error === undefined && !topo.data && <Notice kind="error">{messageOf(summary.error)}</Notice>}
      {topo.error !== undefined && <Notice kind="error">{messageOf(topo.error)}</Notice>}
      {data && (
        <p class="meta" role="status">
          {data.groups.length === 0
            ? t("topology:counts", { nodes: data.nodes.length, edges: data.edges.length })
            : partial
              ? t("topology:grouped.loading", { total: data.total, max: MAX_NODES })
              : t("topology:grouped.shown", { total: data.total, max: MAX_NODES, shown: data.nodes.length })}
        </p>
      )}
      <Notice kind="error">{refused}</Notice>
      <div class="topology-body">
        {data && (
          <GraphView
            data={data}
            selected={selected}
            blast={blastIds}
            focus={focus}
            onSelect={select}
            onOpen={(id) => {
              const n = data.nodes.find((x) => x.id === id);
              const href = n && detailHref(n);
              if (href) navigate(href);
            }}
          />
        )}
        <aside class="card node-panel" aria-live="polite">
          {!node && !group && <p class="meta">{t("topology:selectHint")}</p>}
          {group && (
            <>
              <h2>{group.label}</h2>
              <p>{t("topology:group.of", { count: group.count, kind: t(KIND_LABELS[group.kind]) })}</p>
              <button type="button" onClick={() => toggle(group.id)}>
                {t("topology:group.close")}
              </button>
            </>
          )}
          {node && (
            <>
              <h2>{node.label}</h2>
              <p>
                {t(KIND_LABELS[node.type])} {node.subtitle && <span class="meta">({node.subtitle})</span>}{" "}
                {node.status && <Status value={node.status} />}
              </p>
              <div class="actions">
                {detailHref(node) && (
                  <Link href={detailHref(node)!} class="button">
                    {t("topology:openDetails")}
                  </Link>
                )}
                {isBlastKind(node.type) && (
                  <button
                    type="button"
                    class="primary"
                    disabled={walk.busy}
                    onClick={() => void (blast ? setBlast(undefined) : showBlast(node))}
                  >
                    {blast ? t("topology:blast.hide") : t("topology:blast.show")}
                  </button>
                )}
              </div>
              <TargetMonitors type={node.type} id={node.ref_id} heading="h3" />
              <Notice kind="error">{walk.error}</Notice>
              {blast && (
                <div class="blast">
                  <p>
                    {/* The summary says the node's actual state, and the impact as a what-if unless it is out (docs/adr/0467). */}
                    <strong>{t("topology:blast.impacted", { count: blast.total_impact_count })}</strong> {blast.summary}
                  </p>
                  <ul>
                    {impacted.map((a) => (
                      <li key={`${a.asset_type}:${a.asset_id}`}>
                        {a.name} <span class="meta">({kindLabel(t, a.asset_type)})</span>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </>
          )}
        </aside>
      </div>
      {data && data.groups.length > 0 && (
        <>
          <h2>{t("topology:groups")}</h2>
          <ul class="group-list">
            {data.groups.map((g) => (
              <li key={g.id} style={{ marginLeft: `${(g.id.split(".").length - 1) * 1.25}rem` }}>
                <button type="button" class="link" aria-expanded={g.open} disabled={partial} onClick={() => toggle(g.id)}>
                  {g.label}
                </button>{" "}
                <span class="meta">{t("topology:group.count", { count: g.count, kind: t(KIND_LABELS[g.kind]) })}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>{t("topology:nodes")}</h2>
      <label class="filter">
        {t("topology:find")}
        <input type="search" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <ul class="node-list">
        {listed.slice(0, LIST_LIMIT).map((n) => (
          <li key={n.id}>
            <button type="button" class="link" aria-pressed={n.id === selected} onClick={() => reveal(n.id)}>
              {n.label}
            </button>{" "}
            <span class="meta">
              {t(KIND_LABELS[n.type])}
              {data?.shownAs(n.id) !== n.id && t("topology:inClosedGroup")}
            </span>
          </li>
        ))}
      </ul>
      {listed.length > LIST_LIMIT && <p class="meta">{t("topology:more", { count: listed.length - LIST_LIMIT })}</p>}
    </section>
  );
}
