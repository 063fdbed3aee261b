// A reference field's picker: a combobox (WAI-ARIA 1.2, list autocomplete) that searches the referenced
// group on the server as the user types (its list endpoint's `q`, a moment after the last key), so any of
// a million records can be found by part of its name. Keyboard: Down/Up move through the matches (Down
// also opens the list), Enter picks, Escape closes (again: restores the current choice). The current
// record's name is loaded on edit; emptying the text and leaving the field clears the reference.
import { useEffect, useRef, useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { t } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

/** The referenced group as the picker needs it (an inventory group definition fits). */
export interface RefSource {
  listPath: string;
  itemPath: string;
  idParam: string;
  noun: string;
  /** The field that names a record, searched and sorted by; `name` unless given. */
  titleField?: string;
}

type Row = Record<string, unknown> & { id: number };

interface Matches {
  query: string;
  items: Row[];
  total: number;
}

/** A choice in the list: a record, or "None" (clears the reference). */
type Choice = { id: string; name: string };

const SHOWN = 20;
const DEBOUNCE_MS = 250;

export function RefPicker({
  source,
  value,
  onValue,
  a11y,
}: {
  source: RefSource;
  /** The referenced record's id, or "" for none. */
  value: string;
  onValue: (id: string) => void;
  a11y: { id: string; "aria-invalid": boolean; "aria-describedby"?: string };
}) {
  useT();
  const [text, setText] = useState("");
  const [label, setLabel] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [matches, setMatches] = useState<Matches | undefined>();
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<string | undefined>();
  // The id whose name `label` holds, so choosing a record does not load its name again.
  const known = useRef<string | undefined>(undefined);
  // At most one search in flight: a newer query waits here and replaces any other waiting one.
  const inFlight = useRef(false);
  const waiting = useRef<string | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  const title = source.titleField ?? "name";
  const nameOf = (r: Row) => {
    const v = r[title];
    return typeof v === "string" && v !== "" ? v : `#${r.id}`;
  };
  const listId = `${a11y.id}-listbox`;
  const optionId = (i: number) => `${a11y.id}-option-${i}`;

  // The current record's name, when the value comes from outside (an edit form's record, "Load their version").
  useEffect(() => {
    if (value === known.current) return;
    known.current = value;
    if (value === "") {
      setLabel("");
      setText("");
      return;
    }
    setLabel(`#${value}`);
    setText(`#${value}`);
    ok(anyApi.GET(source.itemPath, { params: { path: { [source.idParam]: value } } })).then(
      (item) => {
        if (!mounted.current || known.current !== value) return;
        const name = nameOf(item as Row);
        setLabel(name);
        setText((t) => (t === `#${value}` ? name : t));
      },
      (e: unknown) =>
        mounted.current &&
        known.current === value &&
        setError(t("common:ref.loadFailed", { noun: source.noun, id: value, reason: messageOf(e) })),
    );
  }, [value, source.itemPath]);

  const search = (query: string) => {
    if (inFlight.current) {
      waiting.current = query;
      return;
    }
    inFlight.current = true;
    setSearching(true);
    const params = { query: { limit: String(SHOWN), sort: title, ...(query ? { q: query } : {}) } };
    ok(anyApi.GET(source.listPath, { params }))
      .then(
        (page) => {
          if (!mounted.current) return;
          const { items, total } = page as { items: Row[]; total: number };
          setMatches({ query, items, total });
          setActive(-1);
          setError(undefined);
        },
        (e: unknown) => mounted.current && setError(messageOf(e)),
      )
      .finally(() => {
        inFlight.current = false;
        const next = waiting.current;
        waiting.current = undefined;
        if (next !== undefined && next !== query && mounted.current) search(next);
        else if (mounted.current) setSearching(false);
      });
  };

  // Searches a moment after the last key, only while the list is open. Opening it on the current choice's
  // name lists from the start (with "None"), not just that record.
  const query = text === label ? "" : text.trim();
  useEffect(() => {
    if (!open || matches?.query === query) return;
    const t = setTimeout(() => search(query), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query, open]);

  const shownForQuery = matches?.query === query ? matches : undefined;
  const choices: Choice[] = [
    ...(query === "" ? [{ id: "", name: t("common:ref.none") }] : []),
    ...(matches?.items ?? []).map((r) => ({ id: String(r.id), name: nameOf(r) })),
  ];

  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const choose = (c: Choice) => {
    known.current = c.id;
    setLabel(c.id === "" ? "" : c.name);
    setText(c.id === "" ? "" : c.name);
    setOpen(false);
    setActive(-1);
    onValue(c.id);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => Math.min(i + 1, choices.length - 1));
    } else if (e.key === "ArrowUp") {
      if (!open) return;
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === "Enter") {
      if (!open) return;
      // Enter picks instead of submitting the form while the list is open.
      e.preventDefault();
      const pick = active >= 0 ? choices[active] : choices.length === 1 ? choices[0] : undefined;
      if (pick && !searching) choose(pick);
    } else if (e.key === "Escape") {
      if (open) {
        e.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text !== label) {
        e.preventDefault();
        setText(label);
      }
    }
  };

  // Leaving the field keeps the choice: emptied text clears it, any other unpicked text is undone.
  const onBlur = () => {
    setOpen(false);
    setActive(-1);
    if (text.trim() === "" && value !== "") choose({ id: "", name: "" });
    else setText(label);
  };

  const status = !open
    ? ""
    : error
      ? t("common:ref.failed", { reason: error })
      : searching || !shownForQuery
        ? t("common:ref.searching")
        : shownForQuery.total === 0
          ? t("common:ref.nothing", { noun: source.noun, query })
          : shownForQuery.total > shownForQuery.items.length
            ? t("common:ref.some", { shown: shownForQuery.items.length, total: shownForQuery.total })
            : t("common:ref.count", { count: shownForQuery.total });

  return (
    <div class="ref-picker">
      <input
        {...a11y}
        type="text"
        role="combobox"
        autoComplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        placeholder={t("common:ref.placeholder")}
        value={text}
        onInput={(e) => {
          setText((e.currentTarget as HTMLInputElement).value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={onBlur}
        onClick={() => setOpen(true)}
      />
      <div class="ref-picker-popup">
        <div
          role="listbox"
          id={listId}
          aria-label={t("common:ref.list", { noun: source.noun })}
          aria-busy={searching}
          hidden={!open}
          class="ref-picker-list"
        >
          {open &&
            choices.map((c, i) => (
              // biome-ignore lint/a11y/useFocusableInteractive: the focus stays in the input; the active option is aria-activedescendant
              // biome-ignore lint/a11y/useKeyWithClickEvents: the input's onKeyDown handles the keys for every option
              <div
                key={c.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                class={`ref-picker-option${c.id === value ? " ref-picker-current" : ""}`}
                // Keeps the focus in the input, so the blur does not undo the choice before the click.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(c)}
              >
                {c.name}
                {c.id !== "" && <span class="meta"> #{c.id}</span>}
              </div>
            ))}
        </div>
        <p class={open && status ? "ref-picker-status meta" : "visually-hidden"} role="status" aria-live="polite">
          {status}
        </p>
      </div>
      {!open && error && <small class="field-error">{error}</small>}
    </div>
  );
}
