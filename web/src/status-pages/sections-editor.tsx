// A status page's sections and their items, edited in place. Both reorder by dragging (HTML5 drag and
// drop, on a handle) and by the keyboard-reachable Move up / Move down buttons: the buttons are the way
// for a keyboard or screen-reader user, say where the thing went (a live region) and keep the focus on
// it. An item moved up past the top of its section goes to the end of the section above (and down, to
// the start of the one below), as dropping it there would.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { TextInput } from "../components/field.tsx";
import { useLoad } from "../use-load.ts";
import { ItemFields, TAGS_LIST } from "./item-fields.tsx";
import { type ItemDraft, moved, movedItem, newItem, newSection, type SectionDraft } from "./page-draft.ts";

type Drag = { kind: "section"; key: string } | { kind: "item"; key: string };
type Sections = SectionDraft[];

const sectionName = (s: SectionDraft, i: number) => (s.name.trim() ? `“${s.name.trim()}”` : `${i + 1}`);
const itemName = (it: ItemDraft, i: number) => (it.public_name.trim() ? `“${it.public_name.trim()}”` : `${i + 1}`);

/** Where an item is: its section's and its own place. */
function findItem(sections: Sections, key: string): [number, number] | undefined {
  for (const [si, s] of sections.entries()) {
    const ii = s.items.findIndex((i) => i.key === key);
    if (ii >= 0) return [si, ii];
  }
  return undefined;
}

export function SectionsEditor({
  sections,
  onSections,
  errors,
  readOnly,
}: {
  sections: Sections;
  onSections: (change: (s: Sections) => Sections) => void;
  errors: Record<string, string>;
  readOnly: boolean;
}) {
  const drag = useRef<Drag | undefined>(undefined);
  const [over, setOver] = useState<string | undefined>();
  const [said, setSaid] = useState("");
  // The button to focus once a move has been drawn (its twin when it is now disabled at an end).
  const focusNext = useRef<{ id: string; twin: string } | undefined>(undefined);
  const tags = useLoad(() => ok(api.GET("/api/v1/tags")), []);

  useEffect(() => {
    const f = focusNext.current;
    if (!f) return;
    focusNext.current = undefined;
    const el = document.getElementById(f.id) as HTMLButtonElement | null;
    (el && !el.disabled ? el : (document.getElementById(f.twin) as HTMLButtonElement | null))?.focus();
  }, [sections]);

  const sectionAt = (from: number, to: number, how: "up" | "down" | "drop") => {
    const s = sections[from]!;
    onSections((all) => moved(all, from, to));
    setSaid(`Section ${sectionName(s, from)} moved to place ${to + 1} of ${sections.length}.`);
    if (how !== "drop") focusNext.current = { id: `${s.key}-${how}`, twin: `${s.key}-${how === "up" ? "down" : "up"}` };
  };

  const itemAt = (key: string, ts: number, ti: number, how: "up" | "down" | "drop") => {
    const at = findItem(sections, key);
    if (!at) return;
    const [fs, fi] = at;
    const item = sections[fs]!.items[fi]!;
    const next = movedItem(sections, fs, fi, ts, ti);
    onSections(() => next);
    const place = next[ts]!.items.findIndex((i) => i.key === key);
    setSaid(
      `Item ${itemName(item, fi)} moved to place ${place + 1} of ${next[ts]!.items.length} in section ${sectionName(next[ts]!, ts)}.`,
    );
    if (how !== "drop") focusNext.current = { id: `${key}-${how}`, twin: `${key}-${how === "up" ? "down" : "up"}` };
  };

  const itemUp = (si: number, ii: number) =>
    ii > 0
      ? itemAt(sections[si]!.items[ii]!.key, si, ii - 1, "up")
      : itemAt(sections[si]!.items[ii]!.key, si - 1, sections[si - 1]!.items.length, "up");
  const itemDown = (si: number, ii: number) =>
    ii < sections[si]!.items.length - 1
      ? itemAt(sections[si]!.items[ii]!.key, si, ii + 1, "down")
      : itemAt(sections[si]!.items[ii]!.key, si + 1, 0, "down");

  const setSection = (key: string, change: Partial<SectionDraft>) =>
    onSections((all) => all.map((s) => (s.key === key ? { ...s, ...change } : s)));
  const setItem = (key: string, change: Partial<ItemDraft>) =>
    onSections((all) => all.map((s) => ({ ...s, items: s.items.map((i) => (i.key === key ? { ...i, ...change } : i)) })));

  const startDrag = (e: DragEvent, d: Drag, what: string) => {
    drag.current = d;
    e.dataTransfer!.effectAllowed = "move";
    e.dataTransfer!.setData("text/plain", what);
    const whole = (e.currentTarget as HTMLElement).closest("li");
    if (whole) e.dataTransfer!.setDragImage(whole, 16, 16);
    e.stopPropagation();
  };
  const endDrag = () => {
    drag.current = undefined;
    setOver(undefined);
  };
  /** A drop target's dragover: accepts the drags `accepts` allows, marking the target. */
  const overHandler = (key: string, accepts: (d: Drag) => boolean) => (e: DragEvent) => {
    const d = drag.current;
    if (!d || !accepts(d)) return;
    e.preventDefault();
    e.stopPropagation();
    e.dataTransfer!.dropEffect = "move";
    if (over !== key) setOver(key);
  };

  /** A section's or item's head: its drag handle, heading and, to a writer, Move up / Move down / Remove. */
  const head = (row: {
    drag: Drag;
    heading: JSX.Element;
    what: string;
    up: () => void;
    down: () => void;
    first: boolean;
    last: boolean;
    remove: () => void;
  }) => (
    <div class="status-head">
      {!readOnly && (
        <span
          class="drag-handle"
          draggable
          title="Drag to reorder"
          aria-hidden="true"
          onDragStart={(e) => startDrag(e, row.drag, row.what)}
          onDragEnd={endDrag}
        >
          ⠿
        </span>
      )}
      {row.heading}
      {!readOnly && (
        <div class="actions">
          <button type="button" id={`${row.drag.key}-up`} aria-label={`Move up: ${row.what}`} disabled={row.first} onClick={row.up}>
            Move up
          </button>
          <button type="button" id={`${row.drag.key}-down`} aria-label={`Move down: ${row.what}`} disabled={row.last} onClick={row.down}>
            Move down
          </button>
          <button type="button" aria-label={`Remove ${row.what}`} onClick={row.remove}>
            Remove
          </button>
        </div>
      )}
    </div>
  );

  return (
    <fieldset class="status-sections">
      <legend>Sections</legend>
      {errors.sections && <small class="field-error">{errors.sections}</small>}
      <p class="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
      <datalist id={TAGS_LIST}>
        {(tags.data ?? []).map((t) => (
          <option key={t.name} value={t.name} />
        ))}
      </datalist>
      {sections.length === 0 && <p class="empty">No sections yet{readOnly ? "." : ": add one, then its monitors, services or tags."}</p>}
      <ol class="status-sections-list">
        {sections.map((s, si) => {
          const what = `section ${sectionName(s, si)}`;
          return (
            <li
              key={s.key}
              data-section={s.key}
              class={`card status-section${over === s.key ? " drop-target" : ""}`}
              onDragOver={overHandler(s.key, () => true)}
              onDragLeave={() => over === s.key && setOver(undefined)}
              onDrop={(e) => {
                const d = drag.current;
                if (!d) return;
                e.preventDefault();
                endDrag();
                if (d.kind === "section") {
                  const from = sections.findIndex((x) => x.key === d.key);
                  if (from >= 0 && from !== si) sectionAt(from, si, "drop");
                } else itemAt(d.key, si, sections[si]!.items.filter((i) => i.key !== d.key).length, "drop");
              }}
            >
              {head({
                drag: { kind: "section", key: s.key },
                heading: <h3>Section {si + 1}</h3>,
                what,
                up: () => sectionAt(si, si - 1, "up"),
                down: () => sectionAt(si, si + 1, "down"),
                first: si === 0,
                last: si === sections.length - 1,
                remove: () => onSections((all) => all.filter((x) => x.key !== s.key)),
              })}
              <TextInput
                id={`section-${s.key}-name`}
                label="Section name"
                value={s.name}
                error={errors[`${s.key}.name`]}
                onValue={(name) => setSection(s.key, { name })}
              />
              <label class="check row">
                <input type="checkbox" checked={s.show_messages} onChange={() => setSection(s.key, { show_messages: !s.show_messages })} />{" "}
                Show each monitor's last message publicly (messages may name hosts)
              </label>
              {errors[`${s.key}.items`] && <small class="field-error">{errors[`${s.key}.items`]}</small>}
              <ol class="status-items">
                {s.items.map((it, ii) => {
                  const itemWhat = `item ${itemName(it, ii)} of ${what}`;
                  return (
                    <li
                      key={it.key}
                      data-item={it.key}
                      class={`status-item${over === it.key ? " drop-target" : ""}`}
                      onDragOver={overHandler(it.key, (d) => d.kind === "item")}
                      onDrop={(e) => {
                        const d = drag.current;
                        if (d?.kind !== "item") return;
                        e.preventDefault();
                        e.stopPropagation();
                        endDrag();
                        if (d.key !== it.key) itemAt(d.key, si, ii, "drop");
                      }}
                    >
                      {head({
                        drag: { kind: "item", key: it.key },
                        heading: <h4>Item {ii + 1}</h4>,
                        what: itemWhat,
                        up: () => itemUp(si, ii),
                        down: () => itemDown(si, ii),
                        first: si === 0 && ii === 0,
                        last: si === sections.length - 1 && ii === s.items.length - 1,
                        remove: () => setSection(s.key, { items: s.items.filter((x) => x.key !== it.key) }),
                      })}
                      <ItemFields item={it} onItem={(change) => setItem(it.key, change)} errors={errors} />
                    </li>
                  );
                })}
              </ol>
              {!readOnly && (
                <button
                  type="button"
                  aria-label={`Add item to ${what}`}
                  onClick={() => setSection(s.key, { items: [...s.items, newItem()] })}
                >
                  Add item
                </button>
              )}
            </li>
          );
        })}
      </ol>
      {!readOnly && (
        <button type="button" onClick={() => onSections((all) => [...all, newSection()])}>
          Add section
        </button>
      )}
    </fieldset>
  );
}
