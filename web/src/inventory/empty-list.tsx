// What an empty list says: with a search or a filter, that nothing matches; without, that there are none
// yet and how one is added (or, for a role that cannot add, who can).
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { GROUP_TITLES } from "../shell/group-titles.ts";
import { GROUP_NOUNS } from "./group-nouns.ts";
import type { Group } from "./types.ts";

export function EmptyList({ group, filtered, canAdd }: { group: Group; filtered: boolean; canAdd: boolean }) {
  const t = useT();
  const title = t(GROUP_TITLES[group.key]);
  if (filtered) return <p class="empty">{t("inventory:empty.noMatch", { title })}</p>;
  return (
    <p class="empty">
      {t("inventory:empty.none", { title })}{" "}
      {canAdd ? (
        <>
          {t("inventory:empty.addWith")}{" "}
          <Link href={`/inventory/${group.key}/new`}>{t("inventory:new", { noun: t(GROUP_NOUNS[group.key]) })}</Link>.
        </>
      ) : (
        t("inventory:empty.whoAdds", { title })
      )}
    </p>
  );
}
