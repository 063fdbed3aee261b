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
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

type Drag = { kind: "section"; key: string } | { kind: "item"; key: string };
type Sections = SectionDraft[];

const sectionName = (s: SectionDraft, i: number) =>
  s.name.trim() ? t("status-pages:sections.quoted", { name: s.name.trim() }) : `${i + 1}`;
const itemName = (it: ItemDraft, i: number) =>
  it.public_name.trim() ? t("status-pages:sections.quoted", { name: it.public_name.trim() }) : `${i + 1}`;

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
  const t = useT();
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
    setSaid(t("status-pages:sections.sectionMoved", { name: sectionName(s, from), place: to + 1, total: sections.length }));
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
      t("status-pages:sections.itemMoved", {
        name: itemName(item, fi),
        place: place + 1,
        total: next[ts]!.items.length,
        section: sectionName(next[ts]!, ts),
      }),
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
          title={t("status-pages:sections.drag")}
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
          <button
            type="button"
            id={`${row.drag.key}-up`}
            aria-label={t("status-pages:sections.moveUpWhat", { what: row.what })}
            disabled={row.first}
            onClick={row.up}
          >
            {t("status-pages:sections.moveUp")}
          </button>
          <button
            type="button"
            id={`${row.drag.key}-down`}
            aria-label={t("status-pages:sections.moveDownWhat", { what: row.what })}
            disabled={row.last}
            onClick={row.down}
          >
            {t("status-pages:sections.moveDown")}
          </button>
          <button type="button" aria-label={t("status-pages:sections.removeWhat", { what: row.what })} onClick={row.remove}>
            {t("status-pages:remove")}
          </button>
        </div>
      )}
    </div>
  );

  return (
    <fieldset class="status-sections">
      <legend>{t("status-pages:sections.title")}</legend>
      {errors.sections && <small class="field-error">{errors.sections}</small>}
      <p class="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
      <datalist id={TAGS_LIST}>
        {(tags.data ?? []).map((t) => (
          <option key={t.name} value={t.name} />
        ))}
      </datalist>
      {sections.length === 0 && <p class="empty">{readOnly ? t("status-pages:sections.none") : t("status-pages:sections.noneWriter")}</p>}
      <ol class="status-sections-list">
        {sections.map((s, si) => {
          const what = t("status-pages:sections.whatSection", { name: sectionName(s, si) });
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
                heading: <h3>{t("status-pages:sections.section", { n: si + 1 })}</h3>,
                what,
                up: () => sectionAt(si, si - 1, "up"),
                down: () => sectionAt(si, si + 1, "down"),
                first: si === 0,
                last: si === sections.length - 1,
                remove: () => onSections((all) => all.filter((x) => x.key !== s.key)),
              })}
              <TextInput
                id={`section-${s.key}-name`}
                label={t("status-pages:sections.name")}
                value={s.name}
                error={errors[`${s.key}.name`]}
                onValue={(name) => setSection(s.key, { name })}
              />
              <label class="check row">
                <input type="checkbox" checked={s.show_messages} onChange={() => setSection(s.key, { show_messages: !s.show_messages })} />{" "}
                {t("status-pages:sections.showMessages")}
              </label>
              {errors[`${s.key}.items`] && <small class="field-error">{errors[`${s.key}.items`]}</small>}
              <ol class="status-items">
                {s.items.map((it, ii) => {
                  const itemWhat = t("status-pages:sections.whatItem", { name: itemName(it, ii), section: what });
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
                        heading: <h4>{t("status-pages:sections.item", { n: ii + 1 })}</h4>,
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
                  aria-label={t("status-pages:sections.addItemTo", { what })}
                  onClick={() => setSection(s.key, { items: [...s.items, newItem()] })}
                >
                  {t("status-pages:sections.addItem")}
                </button>
              )}
            </li>
          );
        })}
      </ol>
      {!readOnly && (
        <button type="button" onClick={() => onSections((all) => [...all, newSection()])}>
          {t("status-pages:sections.add")}
        </button>
      )}
    </fieldset>
  );
}
