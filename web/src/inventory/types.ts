// The shape of a resource group's screens, typed against the generated API types: a list path whose GET
// answers the list envelope, its item's fields for columns, its query's sort and filter names, its create
// body's fields for the form. Renaming a field, sort or filter in a route breaks `npm run build:web` here.
import type { paths } from "../api/client.ts";

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Get<P extends keyof paths> = paths[P] extends { get: infer G } ? G : never;
type Post<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;

/** Paths whose GET answers the list envelope. */
export type ListPath = {
  [P in keyof paths]: Get<P> extends { responses: { 200: infer R } }
    ? Json<R> extends { items: unknown[]; total: number }
      ? P
      : never
    : never;
}[keyof paths];

export type ListItem<P extends ListPath> =
  Get<P> extends { responses: { 200: infer R } } ? (Json<R> extends { items: (infer I)[] } ? I : never) : never;
export type ListQuery<P extends ListPath> = Get<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
export type CreateBody<P extends ListPath> = Post<P> extends { requestBody: infer B } ? Json<B> : never;

/** Paths whose GET takes one path parameter (a detail or a relation of one record). */
export type OnePath = {
  [P in keyof paths]: Get<P> extends { parameters: { path: infer A } } ? (keyof A extends never ? never : P) : never;
}[keyof paths];

/** The kinds GET /inventory/names and the journal (GET /journal's object_type) know. */
export type NamedKind = keyof NonNullable<Get<"/api/v1/inventory/names"> extends { parameters: { query?: infer Q } } ? Q : never>;
/** The API's name of a kind of record: the audit log's entity_type (racks, prefixes and VRFs have no names lookup or journal). */
export type RecordKind = NamedKind | "rack" | "prefix" | "vrf";

export type FieldKind = "text" | "textarea" | "number" | "select" | "boolean" | "tags" | "ref";

export interface FormField<B> {
  name: keyof B & string;
  label: string;
  kind: FieldKind;
  /** For select. */
  options?: readonly string[];
  /** For ref: the group whose records the picker searches (components/ref-picker.tsx). */
  ref?: GroupKey;
  hint?: string;
}

export interface Column<I> {
  name: keyof I & string;
  label: string;
  /**
   * Links to this group's record: the one whose id is the value (site_id -> a site, shown by its name),
   * or, with `idField`, the one whose id is in that field (hardware_name, linked by hardware_id).
   */
  ref?: GroupKey;
  idField?: keyof I & string;
  /** Not shown until chosen in the list's Columns menu. */
  optional?: boolean;
}

type Row = Record<string, unknown>;
type Params = { path?: Record<string, string>; query?: Record<string, string> };

/** How a relation's rows are added and removed from the record's page (the relation's own API routes). */
export interface RelationEdit {
  /** The scope the routes need (buttons hidden without it). */
  scope: string;
  /** The group the picker searches for a record to add. */
  pick: GroupKey;
  /** POST adding the picked record (`picked` its id) to record `id`. */
  add: { path: keyof paths; params: (id: string) => Params; body: (picked: number) => Row };
  /** DELETE removing a row from record `id`. */
  remove: { path: keyof paths; params: (id: string, row: Row) => Params };
}

export interface Relation {
  label: string;
  /** GET of the related rows: a list filtered by this record, or a path under it. */
  path: keyof paths;
  /** The request for record `id`. */
  params: (id: string) => { path?: Record<string, string>; query?: Record<string, string> };
  /** The group the rows are, and the field holding their id. */
  group: GroupKey;
  idField: string;
  /** When a row links either way (a connection), the field holding the other end's id for record `id`. */
  idFieldOf?: (row: Row, id: string) => string;
  /** The field naming the related record when it is not `name` (a membership's hardware_name). */
  nameField?: string;
  /** Extra fields shown after the name. */
  show: readonly string[];
  edit?: RelationEdit;
}

export type GroupKey =
  | "hardware"
  | "compute"
  | "services"
  | "networks"
  | "storage"
  | "clusters"
  | "external"
  | "misc"
  | "sites"
  | "vlans"
  | "ipam"
  | "environments"
  | "categories"
  | "racks"
  | "prefixes"
  | "vrfs";

export interface GroupDef<L extends ListPath = ListPath> {
  key: GroupKey;
  /** The API's name of its records (names lookup, audit history). */
  kind: RecordKind;
  title: string;
  noun: string;
  listPath: L;
  itemPath: OnePath;
  idParam: string;
  /** The field that names a record (its heading, its link in lists, the bulk dialogs) and sorts lists by default; `name` unless given. */
  titleField?: keyof ListItem<L> & string;
  /** The scope a write needs (hidden for users without it). */
  writeScope: string;
  deleteScope: string;
  columns: readonly Column<ListItem<L>>[];
  sorts: readonly NonNullable<ListQuery<L> extends { sort?: infer S } ? S : never>[];
  /** A filter by a related record (`ref`) is a search picker; its value (an id) is kept in the URL like the others. */
  filters: readonly { name: keyof ListQuery<L> & string; label: string; options?: readonly string[]; ref?: GroupKey }[];
  fields: readonly FormField<CreateBody<L>>[];
  relations: readonly Relation[];
  /** A reference whose group is named by another field (an address assigned to a hardware node, a compute unit or a service). */
  polyRef?: { typeField: string; idField: string; groups: Readonly<Record<string, GroupKey>> };
  /** Rows can be selected for bulk delete (POST {list}/bulk-delete) and, with tags, bulk tagging ({list}/bulk-tags). */
  bulk?: `${L}/bulk-delete` extends keyof paths ? { tags: `${L}/bulk-tags` extends keyof paths ? boolean : false } : never;
}

/** A group as the generic screens use it: any definition fits, its names as plain strings. */
export interface Group extends Omit<GroupDef, "columns" | "sorts" | "filters" | "fields" | "bulk" | "titleField"> {
  titleField?: string;
  bulk?: { tags: boolean };
  columns: readonly AnyColumn[];
  sorts: readonly string[];
  filters: readonly AnyFilter[];
  fields: readonly AnyField[];
}

export type AnyField = Omit<FormField<never>, "name"> & { name: string };
/** `text`: a label shown as written instead of translated (a custom field's, custom-fields.tsx). */
export type AnyColumn = Omit<Column<never>, "name" | "idField"> & { name: string; idField?: string; text?: string };
export type AnyFilter = { name: string; label: string; options?: readonly string[]; ref?: GroupKey; text?: string };

/** The scope reading a group: its write scope's resource (write:networks -> read:networks). */
export const readScopeOf = (group: Pick<Group, "writeScope">): string => group.writeScope.replace(/^write:/, "read:");

/** Whether GET /inventory/names and the journal know a kind. */
export const isNamedKind = (kind: RecordKind): kind is NamedKind => kind !== "rack" && kind !== "prefix" && kind !== "vrf";

/** Checks a definition against its paths and keeps its literal types. */
export const defineGroup = <L extends ListPath>(def: GroupDef<L>): GroupDef<L> => def;
