// The cytoscape canvas: pan and zoom by mouse, touch or the buttons; a tap selects a node, a double tap
// opens its detail page. Elements are replaced in place when the data changes, so a live update keeps
// the view where the user left it; only new nodes are laid out.
import cytoscape, { type Core, type ElementDefinition } from "cytoscape";
import { useEffect, useRef } from "preact/hooks";
import type { Sampled } from "./graph-data.ts";

const COLOURS: Record<string, string> = {
  hardware: "#2563eb", compute_unit: "#7c3aed", service: "#059669", storage: "#b45309",
  network: "#0891b2", misc: "#6b7280", external_node: "#be185d", cluster: "#4f46e5",
};

const STYLE = [
  { selector: "node", style: { label: "data(label)", "background-color": "data(colour)", color: "#888", "font-size": 10, "text-valign": "bottom", "text-margin-y": 3, width: 18, height: 18 } },
  { selector: "node[status = 'down'], node[status = 'failed'], node[status = 'stopped']", style: { "border-width": 3, "border-color": "#dc2626" } },
  { selector: "edge", style: { width: 1.5, "line-color": "#94a3b8", "target-arrow-color": "#94a3b8", "target-arrow-shape": "triangle", "curve-style": "bezier", "arrow-scale": 0.7 } },
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

function elements(data: Sampled): ElementDefinition[] {
  return [
    ...data.nodes.map((n) => ({ group: "nodes" as const, data: { id: n.id, label: n.label, kind: n.type, status: n.status ?? "", colour: COLOURS[n.type] ?? "#6b7280" }, ...(n.position ? { position: n.position } : {}) })),
    ...data.edges.map((e) => ({ group: "edges" as const, data: { id: e.id, source: e.source, target: e.target, relation: e.relation } })),
  ];
}

export interface GraphViewProps {
  data: Sampled;
  selected: string | undefined;
  /** The root and impacted node ids of a shown blast radius. */
  blast: { root: string; impacted: ReadonlySet<string> } | undefined;
  onSelect(id: string | undefined): void;
  onOpen(id: string): void;
}

export function GraphView({ data, selected, blast, onSelect, onOpen }: GraphViewProps) {
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
    const want = elements(data);
    const ids = new Set(want.map((e) => e.data.id!));
    c.batch(() => {
      c.elements().filter((el) => !ids.has(el.id())).remove();
      for (const el of want) {
        const have = c.getElementById(el.data.id!);
        if (have.nonempty()) have.data(el.data);
      }
    });
    const fresh = want.filter((el) => c.getElementById(el.data.id!).empty());
    const first = c.nodes().empty();
    const added = c.add(fresh);
    const unplaced = added.nodes().filter((n) => !data.nodes.find((d) => d.id === n.id())?.position);
    const fitAll = () => first && fitTo(c, c.elements());
    if (unplaced.nonempty()) {
      const big = data.nodes.length > 300;
      const layout = first || unplaced.length > 20 ? (big ? { name: "grid" } : { name: "cose", animate: false, randomize: true }) : { name: "circle", animate: false, fit: false };
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
      c.nodes().forEach((n) => void n.addClass(n.id() === blast.root ? "root" : hit.has(n.id()) ? "impacted" : "dimmed"));
      c.edges().forEach((e) => void e.addClass(hit.has(e.source().id()) && hit.has(e.target().id()) ? "impacted" : "dimmed"));
    });
    if (blast) fitTo(c, c.nodes(".root, .impacted"));
  }, [blast, data]);

  const zoom = (factor: number) => {
    const c = cy.current;
    if (c) c.zoom({ level: c.zoom() * factor, renderedPosition: { x: c.width() / 2, y: c.height() / 2 } });
  };
  return (
    <div class="graph-wrap">
      <div class="graph-controls actions">
        <button type="button" onClick={() => zoom(1.25)} aria-label="Zoom in">+</button>
        <button type="button" onClick={() => zoom(0.8)} aria-label="Zoom out">−</button>
        <button type="button" onClick={() => cy.current?.fit(undefined, 30)}>Fit</button>
      </div>
      <div ref={box} class="graph" role="img" aria-label={`Topology graph of ${data.nodes.length} nodes and ${data.edges.length} edges; the list below holds the same nodes`} data-nodes={data.nodes.length} data-impacted={blast ? blast.impacted.size : 0} />
    </div>
  );
}
