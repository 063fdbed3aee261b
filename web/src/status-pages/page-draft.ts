// A status page as the editor holds it (docs/adr/0460-status-page-console.md): every field as typed, and
// the sections and items each with a key of their own, so a reorder moves a section or item with its
// inputs and its error messages. The API knows sections and items only by their place in the list
// (docs/adr/0454): a save sends the whole list, and its 422s (`sections.i.items.j.field`) are mapped back
// to the keys of the list that was sent.
import type { paths } from "../api/schema.d.ts";

export type StatusPage = paths["/api/v1/status-pages/{page_id}"]["get"]["responses"][200]["content"]["application/json"];
export type ItemKind = "monitor" | "service" | "tag";

export interface ItemDraft {
  key: string;
  kind: ItemKind;
  /** The monitor's or service's id ("" for none yet); unused by a tag item. */
  ref: string;
  tag: string;
  public_name: string;
  /** The item's public address as stored (its badges' URLs, docs/adr/0461); sent back so a save keeps it. */
  badge_key?: string | undefined;
}

export interface SectionDraft {
  key: string;
  name: string;
  show_messages: boolean;
  items: ItemDraft[];
}

export interface PageDraft {
  slug: string;
  title: string;
  description: string;
  logo_url: string;
  primary_color: string;
  accent_color: string;
  footer_text: string;
  published: boolean;
  custom_domain: string;
  sections: SectionDraft[];
}

let keys = 0;
export const newKey = (prefix: string) => `${prefix}${++keys}`;

export const EMPTY_PAGE: PageDraft = {
  slug: "",
  title: "",
  description: "",
  logo_url: "",
  primary_color: "",
  accent_color: "",
  footer_text: "",
  published: false,
  custom_domain: "",
  sections: [],
};

export const newSection = (): SectionDraft => ({ key: newKey("s"), name: "", show_messages: false, items: [] });
export const newItem = (kind: ItemKind = "monitor"): ItemDraft => ({ key: newKey("i"), kind, ref: "", tag: "", public_name: "" });

const text = (v: string | number | null | undefined) => (v == null ? "" : String(v));

export function draftOf(p: StatusPage): PageDraft {
  return {
    slug: p.slug,
    title: p.title,
    description: text(p.description),
    logo_url: text(p.logo_url),
    primary_color: text(p.primary_color),
    accent_color: text(p.accent_color),
    footer_text: text(p.footer_text),
    published: p.published,
    custom_domain: text(p.custom_domain),
    sections: p.sections.map((s) => ({
      key: newKey("s"),
      name: s.name,
      show_messages: s.show_messages,
      items: s.items.map((i) => ({
        key: newKey("i"),
        kind: i.kind,
        ref: text(i.kind === "monitor" ? i.monitor_id : i.service_id),
        tag: text(i.tag),
        public_name: text(i.public_name),
        badge_key: i.key,
      })),
    })),
  };
}

const orNull = (s: string) => (s.trim() === "" ? null : s.trim());
/** An id as a number; anything else as typed (null for none), so the API's 422 names the field. */
const ref = (s: string) => (s === "" ? null : Number.isFinite(Number(s)) ? Number(s) : s);

/** The body of a create or a PATCH: every field, the sections as a whole (they replace the stored ones). */
export function bodyOf(d: PageDraft) {
  return {
    slug: d.slug.trim(),
    title: d.title.trim(),
    description: orNull(d.description),
    logo_url: orNull(d.logo_url),
    primary_color: orNull(d.primary_color),
    accent_color: orNull(d.accent_color),
    footer_text: orNull(d.footer_text),
    published: d.published,
    custom_domain: orNull(d.custom_domain),
    sections: d.sections.map((s) => ({
      name: s.name.trim(),
      show_messages: s.show_messages,
      items: s.items.map((i) => ({
        ...(i.kind === "tag"
          ? { kind: i.kind, tag: i.tag.trim(), public_name: orNull(i.public_name) }
          : i.kind === "monitor"
            ? { kind: i.kind, monitor_id: ref(i.ref), public_name: i.public_name.trim() }
            : { kind: i.kind, service_id: ref(i.ref), public_name: i.public_name.trim() }),
        ...(i.badge_key ? { key: i.badge_key } : {}),
      })),
    })),
  };
}

/**
 * The API's field messages keyed for the editor: page fields by name, a section's as `<section key>.name`,
 * an item's as `<item key>.public_name` (the item's own problem, such as its kind, as `<item key>`), by
 * the positions in `sent`, the sections of the save that was answered.
 */
export function keyedErrors(fields: Record<string, string>, sent: SectionDraft[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, msg] of Object.entries(fields)) {
    const m = /^sections\.(\d+)(?:\.items\.(\d+))?(?:\.(\w+))?$/.exec(path);
    if (!m) {
      // The API's error also names the first key of a nested path ("sections"): only shown when nothing deeper is.
      const deeper = path === "sections" && Object.keys(fields).some((k) => k.startsWith("sections."));
      if (!deeper && !path.startsWith("sections.")) out[path] = msg;
      continue;
    }
    const section = sent[Number(m[1])];
    const item = m[2] === undefined ? undefined : section?.items[Number(m[2])];
    const owner = m[2] === undefined ? section?.key : item?.key;
    if (owner === undefined) continue;
    // An item's reference is one field in the editor, whatever its kind calls it.
    const field = m[3] === "monitor_id" || m[3] === "service_id" || m[3] === "tag" ? "ref" : m[3];
    const key = field === undefined || (m[2] !== undefined && field === "items") ? owner : `${owner}.${field}`;
    if (!(key in out)) out[key] = msg;
  }
  return out;
}

/** `list` with the element at `from` moved to `to` (both in range). */
export function moved<T>(list: T[], from: number, to: number): T[] {
  const out = [...list];
  const [x] = out.splice(from, 1);
  out.splice(to, 0, x!);
  return out;
}

/** The sections with one item moved from section `fs` place `fi` to section `ts` place `ti`. */
export function movedItem(sections: SectionDraft[], fs: number, fi: number, ts: number, ti: number): SectionDraft[] {
  if (fs === ts) return sections.map((s, k) => (k === fs ? { ...s, items: moved(s.items, fi, ti) } : s));
  const item = sections[fs]!.items[fi]!;
  return sections.map((s, k) => {
    if (k === fs) return { ...s, items: s.items.filter((_, j) => j !== fi) };
    if (k === ts) return { ...s, items: [...s.items.slice(0, ti), item, ...s.items.slice(ti)] };
    return s;
  });
}
