// Previous / next over a list envelope's page (offset, limit, total), for the lists on a record's page.
import { useT } from "../i18n/use-t.ts";
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
  const t = useT();
  if (total <= limit) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        {t("common:pager.previous")}
      </button>
      <span>{t("common:pager.range", { from: offset + 1, to: Math.min(offset + limit, total), total })}</span>
      <button type="button" disabled={offset + limit >= total} onClick={() => onOffset(offset + limit)}>
        {t("common:pager.next")}
      </button>
    </nav>
  );
}
