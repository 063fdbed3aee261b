// A rack's elevation on its page (docs/racks.md, GET /racks/{id}/elevation): front and rear side by side
// as SVG, each unit a row (rack-geometry.ts), each mounted node a box with its name on its face (both
// faces for a full-depth node), each reservation a hatched block with its reason. A click opens the
// node's page. A user who may write hardware moves a node by dragging it (pointer events) or from the
// keyboard (focus it, arrow keys, Enter; Escape cancels), or with the "move to unit" form; the move is a
// PATCH of rack_unit with If-Match of the node's version as this page loaded it. A 409 (taken, past the
// top: the API names the occupant) or a 412 (the node changed since) is shown and the box goes back.
// docs/adr/0490-rack-elevation-moves.md.
import { useRef, useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { ApiProblem, messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";
import { navigate } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { RefLink } from "./names.tsx";
import { RackReservations, type ReservationRow } from "./rack-reservations.tsx";
import { blockRows, type Numbering, rowOf, rowsMoved, unitAfterDrag, unitAfterKey } from "./rack-geometry.ts";

type Face = "front" | "rear" | "both";
type Occupant =
  | { type: "hardware"; id: number; name: string; first_unit: number; u_height: number; face: Face }
  | { type: "reservation"; id: number; first_unit: number; u_count: number; reason: string };

interface Elevation {
  rack_id: number;
  name: string;
  u_height: number;
  numbering: Numbering;
  units: { unit: number; front: Occupant | null; rear: Occupant | null }[];
  unplaced: { id: number; name: string }[];
  utilisation: { used_u: number; reserved_u: number; free_u: number; percent: number };
}

interface Device {
  id: number;
  name: string;
  first: number;
  height: number;
  face: Face;
}
interface Reservation {
  id: number;
  first: number;
  count: number;
  reason: string;
}

const FACE_LABEL: Record<Face, string> = {
  front: i18nKey("racks:face.front"),
  rear: i18nKey("racks:face.rear"),
  both: i18nKey("racks:face.both"),
};

const ROW = 22;
const PANEL = 240;
const GUTTER = 30;
const GAP = 40;
const HEAD = 24;
const PAGE = 100;

/** The nodes and reservations of an elevation, each once (the API lists them on every unit they take). */
function blocksOf(e: Elevation): { devices: Device[]; reservations: Reservation[] } {
  const devices = new Map<number, Device>();
  const reservations = new Map<number, Reservation>();
  for (const u of e.units)
    for (const o of [u.front, u.rear]) {
      if (o?.type === "hardware") devices.set(o.id, { id: o.id, name: o.name, first: o.first_unit, height: o.u_height, face: o.face });
      else if (o?.type === "reservation") reservations.set(o.id, { id: o.id, first: o.first_unit, count: o.u_count, reason: o.reason });
    }
  return { devices: [...devices.values()], reservations: [...reservations.values()] };
}

/** The version of each node in the rack as loaded, for If-Match (the list pages by 100). */
async function versionsIn(rackId: string): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let offset = 0; ; offset += PAGE) {
    const page = (await ok(
      anyApi.GET("/api/v1/hardware", { params: { query: { rack_id: rackId, limit: String(PAGE), offset: String(offset) } } }),
    )) as { items: { id: number; version: number }[]; total: number };
    for (const h of page.items) out.set(h.id, h.version);
    if (offset + PAGE >= page.total) return out;
  }
}

/**
 * State the drawing shows and its event handlers read: the handlers read the ref, current at once, since
 * a pointer release or a key may come before the re-render of the previous move.
 */
function useHeld<T>(): [T | undefined, { readonly current: T | undefined }, (next: T | undefined) => void] {
  const [value, setValue] = useState<T | undefined>(undefined);
  const now = useRef<T | undefined>(undefined);
  const set = (next: T | undefined) => {
    now.current = next;
    setValue(() => next);
  };
  return [value, now, set];
}

interface Drag {
  id: number;
  pointer: number;
  startY: number;
  rows: number;
}

export function RackElevation({ rackId, onMoved }: { rackId: string; onMoved?: () => void }) {
  const t = useT();
  const session = useSession();
  const canMove = session.can("write:hardware");
  const loaded = useLoad(async () => {
    const [elevation, versions, reservations] = await Promise.all([
      ok(anyApi.GET("/api/v1/racks/{rack_id}/elevation", { params: { path: { rack_id: rackId } } })) as Promise<Elevation>,
      versionsIn(rackId),
      // Every reservation of the rack (the route is not paged: a rack has at most 100 U).
      ok(anyApi.GET("/api/v1/racks/{rack_id}/reservations", { params: { path: { rack_id: rackId } } })) as Promise<{
        items: ReservationRow[];
      }>,
    ]);
    return { elevation, versions, reservations: reservations.items };
  }, [rackId]);
  const svg = useRef<SVGSVGElement>(null);
  const [drag, dragNow, setDrag] = useHeld<Drag>();
  // A keyboard move in progress: the node and the unit it would go to.
  const [pending, pendingNow, setPending] = useHeld<{ id: number; unit: number }>();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error" | "success"; text: string } | undefined>();
  const [moveId, setMoveId] = useState("");
  const [moveUnit, setMoveUnit] = useState("");

  if (loaded.error !== undefined) return <Notice kind="error">{messageOf(loaded.error)}</Notice>;
  const data = loaded.data;
  if (!data) return <p aria-busy="true">{t("common:loading")}</p>;
  const e = data.elevation;
  const rack = { u_height: e.u_height, numbering: e.numbering };
  const { devices, reservations } = blocksOf(e);
  const height = HEAD + e.u_height * ROW;
  const width = 2 * (GUTTER + PANEL) + GAP;

  const move = async (device: Device, unit: number) => {
    setDrag(undefined);
    setPending(undefined);
    if (unit === device.first) return;
    setBusy(true);
    setMessage(undefined);
    const version = data.versions.get(device.id);
    try {
      await ok(
        anyApi.PATCH("/api/v1/hardware/{hardware_id}", {
          params: { path: { hardware_id: String(device.id) } },
          body: { rack_unit: unit },
          headers: version !== undefined ? { "If-Match": `"${version}"` } : {},
        }),
      );
      setMessage({ kind: "success", text: t("racks:elevation.moved", { name: device.name, unit }) });
      onMoved?.();
    } catch (err) {
      const text =
        err instanceof ApiProblem && err.status === 412
          ? t("racks:elevation.stale", { name: device.name })
          : t("racks:elevation.refused", { name: device.name, reason: messageOf(err) });
      setMessage({ kind: "error", text });
    } finally {
      setBusy(false);
      loaded.reload();
    }
  };

  // The pointer's position in the drawing's own units (the SVG scales with the page).
  const yOf = (ev: PointerEvent) => {
    const ctm = svg.current?.getScreenCTM();
    return ctm ? new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse()).y : ev.clientY;
  };
  const onPointerDown = (d: Device) => (ev: PointerEvent) => {
    if (ev.button !== 0) return;
    (ev.currentTarget as Element).setPointerCapture(ev.pointerId);
    setDrag({ id: d.id, pointer: ev.pointerId, startY: yOf(ev), rows: 0 });
  };
  const onPointerMove = (ev: PointerEvent) => {
    const held = dragNow.current;
    if (!held || ev.pointerId !== held.pointer || !canMove) return;
    const rows = rowsMoved(yOf(ev) - held.startY, ROW);
    if (rows !== held.rows) setDrag({ ...held, rows });
  };
  const onPointerUp = (d: Device) => (ev: PointerEvent) => {
    const held = dragNow.current;
    if (!held || ev.pointerId !== held.pointer) return;
    if (held.rows === 0 || !canMove) {
      setDrag(undefined);
      navigate(`/inventory/hardware/${d.id}`);
      return;
    }
    void move(d, unitAfterDrag(rack, d.first, held.rows));
  };
  const onKeyDown = (d: Device) => (ev: KeyboardEvent) => {
    const keyed = pendingNow.current;
    const at = keyed?.id === d.id ? keyed.unit : d.first;
    if (canMove && (ev.key === "ArrowUp" || ev.key === "ArrowDown")) {
      ev.preventDefault();
      setPending({ id: d.id, unit: unitAfterKey(rack, at, ev.key) });
    } else if (ev.key === "Escape") {
      setPending(undefined);
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      if (keyed?.id === d.id && keyed.unit !== d.first) void move(d, keyed.unit);
      else navigate(`/inventory/hardware/${d.id}`);
    }
  };

  /** Where a node is drawn now: where it is, or where a drag or a keyboard move would put it. */
  const shownFirst = (d: Device) =>
    drag?.id === d.id ? unitAfterDrag(rack, d.first, drag.rows) : pending?.id === d.id ? pending.unit : d.first;
  const faceLabel = (f: Face) => t(FACE_LABEL[f]);
  const unitsText = (first: number, count: number) =>
    count > 1 ? t("racks:elevation.units", { first, last: first + count - 1 }) : t("racks:elevation.unit", { unit: first });

  const panel = (side: "front" | "rear", x: number) => (
    <g key={side} transform={`translate(${x} 0)`}>
      <text x={GUTTER + PANEL / 2} y={16} text-anchor="middle" class="rack-face-title">
        {faceLabel(side)}
      </text>
      {e.units.map((u) => (
        <g key={u.unit}>
          <text x={GUTTER - 6} y={HEAD + rowOf(rack, u.unit) * ROW + ROW / 2 + 4} text-anchor="end" class="rack-unit-number">
            {u.unit}
          </text>
          <rect x={GUTTER} y={HEAD + rowOf(rack, u.unit) * ROW} width={PANEL} height={ROW} class="rack-slot" />
        </g>
      ))}
      {reservations.map((r) => {
        const b = blockRows(rack, r.first, r.count);
        return (
          // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: an SVG group is not interactive; role="img" names the reserved block for a screen reader
          <g
            key={`r${r.id}`}
            class="rack-reservation"
            aria-label={t("racks:elevation.reserved", { units: unitsText(r.first, r.count), reason: r.reason })}
            role="img"
          >
            <rect x={GUTTER + 1} y={HEAD + b.top * ROW + 1} width={PANEL - 2} height={b.rows * ROW - 2} />
            <text x={GUTTER + 8} y={HEAD + b.top * ROW + ROW / 2 + 4}>
              {t("racks:elevation.reservedShort", { reason: r.reason })}
            </text>
          </g>
        );
      })}
      {devices
        .filter((d) => d.face === side || d.face === "both")
        .map((d) => {
          const first = shownFirst(d);
          const b = blockRows(rack, first, d.height);
          const moving = first !== d.first;
          return (
            // biome-ignore lint/a11y/useSemanticElements: a <button> cannot be inside an SVG drawing; the group takes focus, Enter and Space like one
            <g
              key={`d${d.id}`}
              class={`rack-device${moving ? " moving" : ""}`}
              role="button"
              tabIndex={d.face === "both" && side === "rear" ? -1 : 0}
              data-hardware-id={d.id}
              data-face={side}
              aria-label={t("racks:elevation.device", { name: d.name, units: unitsText(first, d.height), face: faceLabel(d.face) })}
              aria-describedby={canMove ? "rack-move-help" : undefined}
              onPointerDown={onPointerDown(d)}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp(d)}
              onPointerCancel={() => setDrag(undefined)}
              onKeyDown={onKeyDown(d)}
              onBlur={() => pendingNow.current?.id === d.id && setPending(undefined)}
            >
              <rect x={GUTTER + 3} y={HEAD + b.top * ROW + 2} width={PANEL - 6} height={b.rows * ROW - 4} rx={3} />
              <text x={GUTTER + 10} y={HEAD + b.top * ROW + ROW / 2 + 4}>
                {d.name}
              </text>
            </g>
          );
        })}
    </g>
  );

  const chosen = devices.find((d) => String(d.id) === moveId);
  const sendMove = (ev: Event) => {
    ev.preventDefault();
    const unit = Number(moveUnit);
    if (!chosen || !Number.isInteger(unit) || unit < 1) {
      setMessage({ kind: "error", text: t("racks:elevation.pickDeviceAndUnit") });
      return;
    }
    void move(chosen, unit);
  };

  return (
    <section class="rack-elevation" aria-labelledby="elevation-title" aria-busy={busy || loaded.loading}>
      <h2 id="elevation-title">{t("racks:elevation.title")}</h2>
      <p>
        {t("racks:elevation.utilisation", {
          used: e.utilisation.used_u,
          reserved: e.utilisation.reserved_u,
          free: e.utilisation.free_u,
          percent: e.utilisation.percent,
        })}
      </p>
      {canMove && (
        <p id="rack-move-help" class="hint">
          {t("racks:elevation.help")}
        </p>
      )}
      <div role="status" aria-live="polite">
        {message && <Notice kind={message.kind}>{message.text}</Notice>}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this is a drawing whose boxes are buttons */}
      <svg
        ref={svg}
        class="rack-drawing"
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="group"
        aria-label={t("racks:elevation.drawing", { name: e.name })}
      >
        {panel("front", 0)}
        {panel("rear", GUTTER + PANEL + GAP)}
      </svg>
      {canMove && devices.length > 0 && (
        <form class="rack-move inline-form" onSubmit={sendMove}>
          <label>
            {t("racks:elevation.moveDevice")}
            <select value={moveId} onChange={(ev) => setMoveId((ev.currentTarget as HTMLSelectElement).value)}>
              <option value="">—</option>
              {devices.map((d) => (
                <option key={d.id} value={String(d.id)}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("racks:elevation.toUnit")}
            <input
              type="number"
              min={1}
              max={e.u_height}
              value={moveUnit}
              onInput={(ev) => setMoveUnit((ev.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            {t("racks:elevation.move")}
          </button>
        </form>
      )}
      <RackReservations rackId={rackId} rows={data.reservations} onChanged={() => loaded.reload()} />
      {e.unplaced.length > 0 && (
        <p>
          {t("racks:elevation.unplaced")}{" "}
          {e.unplaced.map((u, i) => (
            <span key={u.id}>
              {i > 0 && ", "}
              <RefLink group="hardware" id={u.id} name={u.name} />
            </span>
          ))}
        </p>
      )}
    </section>
  );
}
