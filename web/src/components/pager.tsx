// Previous / next over a list envelope's page (offset, limit, total), for the lists on a record's page.
export function Pager({
  offset,
  limit,
  total,
  onOffset,
  label,
}: {
  offset: number;
  limit: number;
  total: number;
  onOffset: (offset: number) => void;
  label: string;
}) {
  if (total <= limit) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span>
        {offset + 1}–{Math.min(offset + limit, total)} of {total}
      </span>
      <button type="button" disabled={offset + limit >= total} onClick={() => onOffset(offset + limit)}>
        Next
      </button>
    </nav>
  );
}
