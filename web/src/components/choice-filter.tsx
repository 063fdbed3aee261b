// A list's filter by one of a few values ("Show: All / Drafts / Open"), a labelled select that sends the
// list back to its first page: what a state filter above a table needs.
export function ChoiceFilter<T extends string>({
  label,
  value,
  choices,
  onValue,
}: {
  label: string;
  value: T;
  choices: readonly { value: T; label: string }[];
  onValue: (value: T) => void;
}) {
  return (
    <label class="filter">
      {label}
      <select value={value} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value as T)}>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
