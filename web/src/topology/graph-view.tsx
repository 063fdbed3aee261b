// The cytoscape canvas: pan and zoom by mouse, touch or the buttons; a tap selects a node (or opens a
// closed group), a double tap opens its detail page. Elements are replaced in place when the data
// changes, so a live update keeps the view where the user left it; only new nodes are laid out. A
// grouped drawing (./clusters.ts) is placed by ./cluster-layout.ts, open groups as compound nodes.
import cytoscape, { type Core, type ElementDefinition } from "cytoscape";
import { useEffect, useRef } from "preact/hooks";
import { useT } from "../i18n/use-t.ts";
import { clusterPositions } from "./cluster-layout.ts";
import type { GraphData } from "./clusters.ts";

const COLOURS: Record<string, string> = {
  hardware: "#2563eb",
  compute_unit: "#7c3aed",
  service: "#059669",
  storage: "#b45309",
  network: "#0891b2",
  misc: "#6b7280",
  external_node: "#be185d",
  cluster: "#4f46e5",
};

const STYLE = [
  {
    selector: "node",
    style: {
      label: "data(label)",
      "background-color": "data(colour)",
      color: "#888",
      "font-size": 10,
      "text-valign": "bottom",
      "text-margin-y": 3,
      width: 18,
      height: 18,
    },
  },
  {
    selector: "node[status = 'down'], node[status = 'failed'], node[status = 'stopped']",
    style: { "border-width": 3, "border-color": "#dc2626" },
  },
  {
    selector: "edge",
    style: {
      width: 1.5,
      "line-color": "#94a3b8",
      "target-arrow-color": "#94a3b8",
      "target-arrow-shape": "triangle",
      "curve-style": "bezier",
      "arrow-scale": 0.7,
    },
  },
  {
    selector: "node.group",
    style: {
      shape: "round-rectangle",
      width: "data(size)",
      height: "data(size)",
      "background-opacity": 0.45,
      "border-width": 2,
      "border-color": "data(colour)",
      "font-size": 12,
      "text-wrap": "wrap",
      "text-max-width": 220,
    },
  },
  {
    selector: "node.group-open",
    style: {
      shape: "round-rectangle",
      "background-color": "data(colour)",
      "background-opacity": 0.06,
      "border-width": 1.5,
      "border-style": "dashed",
      "border-color": "data(colour)",
      "text-valign": "top",
      "text-margin-y": -4,
      "font-size": 12,
      padding: 14,
    },
  },
  {
    selector: "edge.merged",
    style: { width: "data(width)", label: "data(count)", "font-size": 9, color: "#64748b", "text-background-opacity": 0 },
  },
  { selector: "node:selected", style: { "border-width": 4, "border-color": "#f59e0b" } },
  { selector: ".dimmed", style: { opacity: 0.15 } },
  { selector: "node.impacted", style: { "background-color": "#dc2626", width: 24, height: 24 } },
  { selector: "node.root", style: { "background-color": "#f59e0b", width: 28, height: 28 } },
  { selector: "edge.impacted", style: { "line-color": "#dc2626", "target-arrow-color": "#dc2626", width: 3 } },
] as unknown as cytoscape.StylesheetJson;

/** Fits the view to `what`, never closer than 1.5 (a handful of nodes would be drawn huge). */
function fitTo(c: Core, what: cytoscape.CollectionArgument): void {
  c.fit(what, 40);
  if (c.zoom() > 1.5) c.zoom({ level: 1.5, renderedPosition: { x: c.width() / 2, y: c.height() / 2 } });
}

type Point = { x: number; y: number };

function elements(data: GraphData, placed: ReadonlyMap<string, Point> | undefined): ElementDefinition[] {
  const at = (id: string, saved?: Point) => {
    const p = placed ? placed.get(id) : saved;
    return p ? { position: { ...p } } : {};
  };
  // Groups come first: cytoscape adds a compound node's children only after the node itself.
  return [
    ...data.groups.map((g) => ({
      group: "nodes" as const,
      data: {
        id: g.id,
        label: g.open ? g.label : `${g.label} (${g.count.toLocaleString("en")})`,
        kind: g.kind,
        status: "",
        colour: COLOURS[g.kind] ?? "#6b7280",
        size: Math.round(34 + 10 * Math.log10(g.count)),
        ...(g.parent ? { parent: g.parent } : {}),
      },
      classes: g.open ? "group-open" : "group",
      ...(g.open ? {} : at(g.id)),
    })),
    ...data.nodes.map((n) => {
      const parent = data.parents.get(n.id);
      return {
        group: "nodes" as const,
        data: {
          id: n.id,
          label: n.label,
          kind: n.type,
          status: n.status ?? "",
          colour: COLOURS[n.type] ?? "#6b7280",
          ...(parent ? { parent } : {}),
        },
        ...at(n.id, n.position),
      };
    }),
    ...data.edges.map((e) => ({
      group: "edges" as const,
      data: {
        id: e.id,
        source: e.source,
        target: e.target,
        relation: e.relation,
        ...(e.count ? { count: e.count, width: Math.min(8, 1.5 + Math.log2(e.count)) } : {}),
      },
      ...(e.count ? { classes: "merged" } : {}),
    })),
  ];
}

export interface GraphViewProps {
  data: GraphData;
  selected: string | undefined;
  /** The root and impacted node ids of a shown blast radius. */
  blast: { root: string; impacted: ReadonlySet<string> } | undefined;
  onSelect(id: string | undefined): void;
  onOpen(id: string): void;
  /** Fits the view to this element whenever `seq` changes (a group just opened). */
  focus?: { id: string; seq: number } | undefined;
}

export function GraphView({ data, selected, blast, onSelect, onOpen, focus }: GraphViewProps) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | undefined>(undefined);
  const handlers = useRef({ onSelect, onOpen });
  handlers.current = { onSelect, onOpen };

  useEffect(() => {
    const instance = cytoscape({ container: box.current, style: STYLE, wheelSensitivity: 0.3, minZoom: 0.05, maxZoom: 4 });
    instance.on("tap", "node", (e) => handlers.current.onSelect(e.target.id() as string));
    instance.on("tap", (e) => e.target === instance && handlers.current.onSelect(undefined));
    instance.on("dbltap", "node", (e) => handlers.current.onOpen(e.target.id() as string));
    cy.current = instance;
    return () => instance.destroy();
  }, []);

  // Replace the elements in place; lay out only what is new (all of it the first time).
  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    const placed = data.groups.length > 0 ? clusterPositions(data) : undefined;
    const want = elements(data, placed);
    const ids = new Set(want.map((e) => e.data.id!));
    c.batch(() => {
      c.elements()
        .filter((el) => !ids.has(el.id()))
        .remove();
      for (const el of want) {
        const have = c.getElementById(el.data.id!);
        if (have.empty()) continue;
        // A group opened or closed: its records move in or out of it, and it changes its look.
        if (have.isNode() && (have.data("parent") ?? null) !== (el.data.parent ?? null)) have.move({ parent: el.data.parent ?? null });
        have.data(el.data);
        have.removeClass("group group-open merged");
        if (el.classes) have.addClass(el.classes);
        if (el.position && !have.isParent()) have.position(el.position);
      }
    });
    const fresh = want.filter((el) => c.getElementById(el.data.id!).empty());
    const first = c.nodes().empty();
    const added = c.add(fresh);
    const unplaced = placed ? c.collection() : added.nodes().filter((n) => !data.nodes.find((d) => d.id === n.id())?.position);
    const fitAll = () => first && fitTo(c, c.elements());
    if (unplaced.nonempty()) {
      const big = data.nodes.length > 300;
      const layout =
        first || unplaced.length > 20
          ? big
            ? { name: "grid" }
            : { name: "cose", animate: false, randomize: true }
          : { name: "circle", animate: false, fit: false };
      const run = (first ? c.elements() : added).layout(layout as cytoscape.LayoutOptions);
      run.one("layoutstop", fitAll);
      run.run();
    } else fitAll();
  }, [data]);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    c.nodes(":selected").unselect();
    if (selected) c.getElementById(selected).select();
  }, [selected, data]);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    c.batch(() => {
      c.elements().removeClass("dimmed impacted root");
      if (!blast) return;
      const hit = new Set([blast.root, ...blast.impacted]);
      // An open group is not dimmed: its opacity would dim the impacted records inside it too.
      c.nodes().forEach(
        (n) =>
          void (n.isParent() && !hit.has(n.id())
            ? undefined
            : n.addClass(n.id() === blast.root ? "root" : hit.has(n.id()) ? "impacted" : "dimmed")),
      );
      c.edges().forEach((e) => void e.addClass(hit.has(e.source().id()) && hit.has(e.target().id()) ? "impacted" : "dimmed"));
    });
    if (blast) fitTo(c, c.nodes(".root, .impacted"));
  }, [blast, data]);

  useEffect(() => {
    const c = cy.current;
    const target = focus && c?.getElementById(focus.id);
    if (c && target?.nonempty()) fitTo(c, target);
  }, [focus?.seq]);

  const zoom = (factor: number) => {
    const c = cy.current;
    if (c) c.zoom({ level: c.zoom() * factor, renderedPosition: { x: c.width() / 2, y: c.height() / 2 } });
  };
  return (
    <div class="graph-wrap">
      <div class="graph-controls actions">
        <button type="button" onClick={() => zoom(1.25)} aria-label={t("topology:zoomIn")}>
          +
        </button>
        <button type="button" onClick={() => zoom(0.8)} aria-label={t("topology:zoomOut")}>
          −
        </button>
        <button type="button" onClick={() => cy.current?.fit(undefined, 30)}>
          {t("topology:fit")}
        </button>
      </div>
      <div
        ref={box}
        class="graph"
        role="img"
        aria-label={t("topology:graphLabel", { nodes: data.nodes.length, edges: data.edges.length })}
        data-nodes={data.nodes.length}
        data-impacted={blast ? blast.impacted.size : 0}
      />
    </div>
  );
}
