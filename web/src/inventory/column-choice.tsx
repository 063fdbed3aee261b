// Which columns a group's list shows, chosen in its Columns menu and remembered in this browser
// (localStorage, one entry per group; docs/adr/0470). The first column, the record's link, is always
// shown; a remembered column the group no longer has is ignored.
import { useState } from "preact/hooks";
import { useT } from "../i18n/use-t.ts";
import type { AnyColumn, Group } from "./types.ts";

const keyOf = (group: Group) => `svc.inventory.columns.${group.key}`;

function remembered(group: Group): string[] | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(keyOf(group)) ?? "null") as unknown;
    return Array.isArray(stored) ? stored.filter((n): n is string => typeof n === "string") : undefined;
  } catch {
    return undefined;
  }
}

export interface ColumnChoice {
  shown: readonly AnyColumn[];
  isShown(name: string): boolean;
  toggle(name: string): void;
  reset(): void;
}

export function useColumnChoice(group: Group): ColumnChoice {
  const [chosen, setChosen] = useState<string[] | undefined>(() => remembered(group));
  const first = group.columns[0]!.name;
  const isShown = (name: string) =>
    name === first || (chosen ? chosen.includes(name) : !group.columns.find((c) => c.name === name)?.optional);
  const save = (next: string[] | undefined) => {
    setChosen(next);
    if (next) localStorage.setItem(keyOf(group), JSON.stringify(next));
    else localStorage.removeItem(keyOf(group));
  };
  return {
    shown: group.columns.filter((c) => isShown(c.name)),
    isShown,
    toggle: (name) => {
      const now = group.columns.filter((c) => isShown(c.name)).map((c) => c.name);
      save(
        now.includes(name) ? now.filter((n) => n !== name) : group.columns.map((c) => c.name).filter((n) => n === name || now.includes(n)),
      );
    },
    reset: () => save(undefined),
  };
}

/** The Columns menu: a checkbox per column (the first, the record's link, always shown). */
export function ColumnsMenu({ group, choice }: { group: Group; choice: ColumnChoice }) {
  const t = useT();
  return (
    <details class="columns-menu">
      <summary>{t("inventory:columns.menu")}</summary>
      <fieldset>
        <legend class="visually-hidden">{t("inventory:columns.shown")}</legend>
        {group.columns.map((c, i) => (
          <label key={c.name}>
            <input type="checkbox" checked={choice.isShown(c.name)} disabled={i === 0} onChange={() => choice.toggle(c.name)} />{" "}
            {c.text ?? t(c.label)}
          </label>
        ))}
        <button type="button" class="link" onClick={choice.reset}>
          {t("inventory:columns.default")}
        </button>
      </fieldset>
    </details>
  );
}
