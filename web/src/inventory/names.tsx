// The names of the records a screen refers to by id, looked up together: one GET /inventory/names for
// every reference on the screen (docs/adr/0468), never one request per reference. A reference is then
// shown as the record's name linking to it; "#id" only while loading, or when the record is gone or the
// role cannot read its kind.
import { anyApi, ok } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";
import { GROUPS } from "./groups.ts";
import { type GroupKey, isNamedKind, readScopeOf } from "./types.ts";

export interface RecordRef {
  group: GroupKey;
  id: unknown;
}

/** The API answers at most this many ids of a kind; a screen holds fewer references than that. */
const MAX_IDS = 100;

export type NameOf = (group: GroupKey, id: unknown) => string | undefined;

const idOf = (id: unknown): number | undefined => {
  const n = typeof id === "number" ? id : typeof id === "string" && /^\d+$/.test(id) ? Number(id) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** Looks up the names of `refs` (kinds the role cannot read are not asked) and answers a lookup. */
export function useNames(refs: readonly RecordRef[]): NameOf {
  const session = useSession();
  const wanted = new Map<string, Set<number>>();
  for (const r of refs) {
    const id = idOf(r.id);
    const group = GROUPS[r.group];
    if (id === undefined || !isNamedKind(group.kind) || !session.can(readScopeOf(group))) continue;
    const ids = wanted.get(group.kind) ?? new Set<number>();
    if (ids.size < MAX_IDS) ids.add(id);
    wanted.set(group.kind, ids);
  }
  const query = Object.fromEntries(
    [...wanted].sort(([a], [b]) => a.localeCompare(b)).map(([k, ids]) => [k, [...ids].sort((a, b) => a - b).join(",")]),
  );
  const key = JSON.stringify(query);
  const names = useLoad(async () => {
    if (wanted.size === 0) return new Map<string, string>();
    const answer = (await ok(anyApi.GET("/api/v1/inventory/names", { params: { query } }))) as {
      items: { type: string; id: number; name: string }[];
    };
    return new Map(answer.items.map((i) => [`${i.type}:${i.id}`, i.name]));
  }, [key]);
  return (group, id) => names.data?.get(`${GROUPS[group].kind}:${idOf(id)}`);
}

/** A link to a referenced record, by its name when known. */
export function RefLink({ group, id, name }: { group: GroupKey; id: unknown; name?: string | undefined }) {
  return <Link href={`/inventory/${group}/${String(id)}`}>{name ?? `#${String(id)}`}</Link>;
}
