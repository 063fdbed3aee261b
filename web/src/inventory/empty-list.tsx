// What an empty list says: with a search or a filter, that nothing matches; without, that there are none
// yet and how one is added (or, for a role that cannot add, who can).
import { Link } from "../router.tsx";
import type { Group } from "./types.ts";

export function EmptyList({ group, filtered, canAdd }: { group: Group; filtered: boolean; canAdd: boolean }) {
  const title = group.title.toLowerCase();
  if (filtered) return <p class="empty">No {title} match.</p>;
  return (
    <p class="empty">
      No {title} yet.{" "}
      {canAdd ? (
        <>
          Add the first with <Link href={`/inventory/${group.key}/new`}>New {group.noun}</Link>.
        </>
      ) : (
        `A role that can change ${title} adds them.`
      )}
    </p>
  );
}
