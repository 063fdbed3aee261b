// The checkbox heading a selection column: checked when every row is selected, mixed (indeterminate)
// when some are, and a click selects all or none (inventory lists, the agents table).
export function SelectAllHeader({ label, all, some, onToggle }: { label: string; all: boolean; some: boolean; onToggle: () => void }) {
  return (
    <th scope="col" class="select">
      <input
        type="checkbox"
        aria-label={label}
        checked={all}
        ref={(el) => {
          if (el) el.indeterminate = !all && some;
        }}
        onChange={onToggle}
      />
    </th>
  );
}
