// A status page item's public address (docs/adr/0461): items are replaced as a whole on every save and
// have no ids, so each carries a key, unique within its page, that a badge URL names. A key sent back
// by the admin API is kept (renaming an item then keeps its badges working); an item without one gets a
// slug of its public name, made unique with -2, -3...
import { slugText } from "../slug-text.ts";

export const ITEM_KEY_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const ITEM_KEY_MAX = 64;

/** "Storage cluster (EU)" -> "storage-cluster-eu"; a name with no letter or digit of a-z0-9 -> "item". */
export function slugOfName(name: string): string {
  return slugText(name, ITEM_KEY_MAX) || "item";
}

/** `base` with the smallest suffix -2, -3... not in `taken`, cut so that it stays within 64 characters. */
function unique(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const key = `${base.slice(0, ITEM_KEY_MAX - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!taken.has(key)) return key;
  }
}

export interface KeyedInput {
  /** The key sent with the item, if any (already checked against ITEM_KEY_PATTERN). */
  key?: string | null | undefined;
  /** The name the public sees (a tag item's tag when it has none). */
  name: string;
}

/**
 * Every item's key, in order. Sent keys are kept; the first of two equal sent keys keeps it and the index
 * of each later one is returned in `duplicates` (the caller answers 422). Unkeyed items get a slug of
 * their name that no other item of the page holds.
 */
export function assignItemKeys(items: readonly KeyedInput[]): { keys: string[]; duplicates: number[] } {
  const taken = new Set<string>();
  const duplicates: number[] = [];
  items.forEach((item, i) => {
    if (!item.key) return;
    if (taken.has(item.key)) duplicates.push(i);
    taken.add(item.key);
  });
  const keys = items.map((item) => {
    if (item.key) return item.key;
    const key = unique(slugOfName(item.name), taken);
    taken.add(key);
    return key;
  });
  return { keys, duplicates };
}
