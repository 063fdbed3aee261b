// A settings table: a hidden caption for screen readers, the column headers (with an unlabelled
// actions column when the user may act), and the rows; on a phone the rows become labelled cards.
import type { ComponentChildren } from "preact";
import { useT } from "../i18n/use-t.ts";

export function Table({
  caption,
  columns,
  actions = false,
  compact = false,
  children,
}: {
  caption: string;
  columns: readonly string[];
  actions?: boolean;
  compact?: boolean;
  children: ComponentChildren;
}) {
  const t = useT();
  return (
    <div class="table-wrap">
      <table class={compact ? "compact" : undefined}>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span class="visually-hidden">{t("settings:table.actions")}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
