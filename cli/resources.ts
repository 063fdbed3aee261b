// The generic commands over every kind of the table (kinds.ts): get, list, describe, create -f, edit,
// delete. A name is resolved to an id through the list's search (`q`) and an exact match on the kind's
// name field, so `lab get hardware pve-1` and `lab get hardware 12` are the same.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CliError, EXIT, usageError } from "./exit.ts";
import { itemUrl, type Kind } from "./kinds.ts";
import { ListPrinter, type OutputOptions, printObject } from "./output.ts";
import { confirm } from "./prompt.ts";
import type { Session } from "./session.ts";
import { yaml } from "./yaml.ts";

type Obj = Record<string, unknown>;
const out = (text: string) => process.stdout.write(text);
const PAGE = 100;
const NDJSON = "application/x-ndjson";

export interface ListOptions extends OutputOptions {
  filter?: string[];
  q?: string;
  sort?: string;
  desc?: boolean;
  limit?: string;
}

function filtersOf(kind: Kind, opts: ListOptions): Record<string, string> {
  const query: Record<string, string> = {};
  for (const f of opts.filter ?? []) {
    const eq = f.indexOf("=");
    if (eq < 1) throw usageError(`--filter ${f}: write it as field=value`);
    const key = f.slice(0, eq);
    if (!kind.filters.includes(key))
      throw usageError(`--filter ${key}: ${kind.name} lists filter by ${kind.filters.join(", ") || "nothing but -q"}`);
    query[key] = f.slice(eq + 1);
  }
  if (opts.q) query.q = opts.q;
  if (opts.sort) {
    if (kind.sorts.length > 0 && !kind.sorts.includes(opts.sort))
      throw usageError(`--sort ${opts.sort}: ${kind.name} sorts by ${kind.sorts.join(", ")}`);
    query.sort = opts.sort;
  }
  if (opts.desc) query.direction = "desc";
  return query;
}

/**
 * Every object of a list, up to `max`, in chunks as they arrive: from one streamed request when the kind's
 * list answers NDJSON (docs/adr/0503), else page by page (100 each, each page a request against the
 * server's rate limit).
 */
export async function* pages(
  session: Session,
  kind: Kind,
  query: Record<string, string>,
  max = Number.POSITIVE_INFINITY,
): AsyncGenerator<Obj[]> {
  if (kind.streams) {
    yield* streamedRows(session, kind, query, max);
    return;
  }
  let offset = 0;
  while (offset < max) {
    const limit = Math.min(PAGE, max - offset);
    const { body } = await session.client.get<{ items: Obj[]; total: number }>(kind.path, { ...query, limit, offset });
    yield body.items;
    offset += body.items.length;
    if (body.items.length < limit || offset >= body.total) return;
  }
}

/** The rows of an NDJSON list, as many as each read of the body completes; stops reading after `max`. */
async function* streamedRows(session: Session, kind: Kind, query: Record<string, string>, max: number): AsyncGenerator<Obj[]> {
  const res = await session.client.stream(kind.path, NDJSON, query);
  let rest = "";
  let count = 0;
  try {
    const chunks = res[Symbol.asyncIterator]();
    for (;;) {
      let read: IteratorResult<string>;
      try {
        read = await chunks.next();
      } catch (e) {
        // The server cuts the response off on an error after the first line: the list is not whole.
        throw new CliError(`the list from ${session.client.baseUrl} broke off after ${count} rows: ${(e as Error).message}`, EXIT.network);
      }
      if (read.done) break;
      const lines = (rest + read.value).split("\n");
      rest = lines.pop()!;
      const items = lines.slice(0, max - count).map((l) => JSON.parse(l) as Obj);
      count += items.length;
      if (items.length > 0) yield items;
      if (count >= max) return;
    }
    // Without HTTP's final chunk the server did not finish the list, even when the cut fell between lines.
    if (!res.complete || rest.trim() !== "")
      throw new CliError(`the list from ${session.client.baseUrl} broke off after ${count} rows`, EXIT.network);
  } finally {
    res.destroy();
  }
}

function columnsFor(kind: Kind, opts: OutputOptions): string[] {
  if (opts.columns)
    return opts.columns
      .split(",")
      .map((c) => c.trim())
      .filter(Boolean);
  return opts.output === "wide" ? kind.fields : kind.columns;
}

function printer(kind: Kind, opts: OutputOptions): ListPrinter {
  return new ListPrinter(out, opts, columnsFor(kind, opts), kind.nameField, process.stdout.isTTY ? process.stdout.columns : undefined);
}

export async function listCommand(session: Session, kindWord: string, opts: ListOptions): Promise<void> {
  const kind = await session.kind(kindWord);
  const max = opts.limit === undefined ? Number.POSITIVE_INFINITY : Number(opts.limit);
  if (max !== Number.POSITIVE_INFINITY && (!Number.isInteger(max) || max < 1))
    throw usageError(`--limit ${opts.limit}: a whole number from 1`);
  const p = printer(kind, opts);
  for await (const items of pages(session, kind, filtersOf(kind, opts), max)) p.page(items);
  p.end();
}

/** The id of `ref`: itself when numeric, else the one object whose name field equals it. */
export async function resolveId(session: Session, kind: Kind, ref: string): Promise<string> {
  if (/^\d+$/.test(ref)) return ref;
  const field = kind.nameField;
  if (!field) throw usageError(`${kind.name} objects have no name: give the id`);
  const matches: Obj[] = [];
  for await (const items of pages(session, kind, { q: ref })) matches.push(...items.filter((i) => i[field] === ref));
  if (matches.length === 0) throw new CliError(`404 RESOURCE_NOT_FOUND: no ${kind.name} with ${field} "${ref}"`, EXIT.refused, 404);
  if (matches.length > 1)
    throw usageError(
      `${matches.length} ${kind.name} objects have ${field} "${ref}" (ids ${matches.map((m) => m.id).join(", ")}): give the id`,
    );
  return String(matches[0]!.id);
}

export async function fetchOne(session: Session, kind: Kind, ref: string): Promise<{ id: string; body: Obj; etag: string | null }> {
  const id = await resolveId(session, kind, ref);
  if (kind.get) {
    const res = await session.client.get<Obj>(itemUrl(kind, id));
    return { id, body: res.body, etag: res.headers.get("etag") };
  }
  // A kind without an item GET: its list row is what there is to show.
  for await (const items of pages(session, kind, {})) {
    const found = items.find((i) => String(i.id) === id);
    if (found) return { id, body: found, etag: null };
  }
  throw new CliError(`404 RESOURCE_NOT_FOUND: ${kind.name} ${id} was not found`, EXIT.refused, 404);
}

export async function getCommand(session: Session, kindWord: string, ref: string | undefined, opts: ListOptions): Promise<void> {
  if (ref === undefined) return listCommand(session, kindWord, opts);
  const kind = await session.kind(kindWord);
  const { body } = await fetchOne(session, kind, ref);
  if (opts.jq || opts.output === "json" || opts.output === "yaml") return printObject(out, body, opts);
  const p = printer(kind, opts);
  p.page([body]);
  p.end();
}

export async function describeCommand(session: Session, kindWord: string, ref: string, opts: OutputOptions): Promise<void> {
  const kind = await session.kind(kindWord);
  const { body, etag } = await fetchOne(session, kind, ref);
  if (opts.jq || opts.output === "json") return printObject(out, body, opts);
  out(`# ${kind.name} ${body.id}${etag ? ` (ETag ${etag})` : ""}\n`);
  out(yaml().stringify(body));
}

/** The objects of a YAML or JSON file (`-` for stdin): one object, a list, or several YAML documents. */
export function readObjects(file: string): Obj[] {
  const text = readFileSync(file === "-" ? 0 : file, "utf8");
  const docs = yaml().parseAllDocuments(text);
  const objects: Obj[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) throw usageError(`${file}: ${doc.errors[0]!.message.split("\n")[0]}`);
    const value = doc.toJS() as unknown;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === null || v === undefined) continue;
      if (typeof v !== "object" || Array.isArray(v)) throw usageError(`${file}: each object must be a mapping of fields`);
      objects.push(v as Obj);
    }
  }
  if (objects.length === 0) throw usageError(`${file}: no objects in it`);
  return objects;
}

export async function createCommand(session: Session, kindWord: string, opts: OutputOptions & { file?: string }): Promise<void> {
  const kind = await session.kind(kindWord);
  if (!kind.create) throw usageError(`${kind.name} objects cannot be created through the API`);
  if (!opts.file) throw usageError("create needs -f FILE (YAML or JSON; - for standard input)");
  const objects = readObjects(opts.file);
  const fields = kind.create.bodyProperties;
  for (const [i, o] of objects.entries()) {
    const unknown = fields ? Object.keys(o).filter((k) => !(k in fields)) : [];
    if (unknown.length > 0) throw usageError(`${opts.file}: object ${i + 1}: ${kind.name} has no field ${unknown.join(", ")}`);
  }
  for (const o of objects) {
    const { body } = await session.client.request<Obj>("POST", kind.path, { body: o });
    if (opts.output || opts.jq) printObject(out, body, opts);
    else out(`${kind.name} ${body.id ?? ""}${kind.nameField && body[kind.nameField] ? ` (${body[kind.nameField]})` : ""} created\n`);
  }
}

/** The fields `editable` names, from `current`, in the order of `editable`. */
function editableView(current: Obj, editable: string[]): Obj {
  const view: Obj = {};
  for (const k of editable) if (k in current) view[k] = current[k];
  return view;
}

export function changedFields(before: Obj, after: Obj): Obj {
  const patch: Obj = {};
  for (const [k, v] of Object.entries(after)) if (JSON.stringify(before[k]) !== JSON.stringify(v)) patch[k] = v;
  for (const k of Object.keys(before)) if (!(k in after)) patch[k] = null;
  return patch;
}

export async function editCommand(session: Session, kindWord: string, ref: string, opts: OutputOptions): Promise<void> {
  const kind = await session.kind(kindWord);
  const write = kind.update ?? kind.replace;
  if (!write || !kind.itemPath) throw usageError(`${kind.name} objects cannot be changed through the API`);
  const { id, body, etag } = await fetchOne(session, kind, ref);
  const editable = Object.keys(write.bodyProperties ?? {});
  const before = editableView(body, editable);
  const dir = mkdtempSync(join(tmpdir(), "lab-edit-"));
  const file = join(dir, `${kind.name}-${id}.yaml`);
  try {
    writeFileSync(
      file,
      `# Editing ${kind.name} ${id}. Save and quit to apply; an unchanged file changes nothing.\n# Fields you may change: ${editable.join(", ")}\n${yaml().stringify(before)}`,
      { mode: 0o600 },
    );
    const editor = process.env.VISUAL || process.env.EDITOR || "vi";
    const ran = spawnSync("sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit" });
    if (ran.status !== 0)
      throw new CliError(`the editor (${editor}) exited with ${ran.status ?? ran.signal}; nothing was changed`, EXIT.failure);
    const after = readObjects(file)[0]!;
    const unknown = Object.keys(after).filter((k) => !editable.includes(k));
    if (unknown.length > 0) throw usageError(`${kind.name} ${id}: ${unknown.join(", ")} cannot be changed here; nothing was changed`);
    const patch = write === kind.update ? changedFields(before, after) : after;
    if (write === kind.update && Object.keys(patch).length === 0) {
      out(`${kind.name} ${id}: no changes\n`);
      return;
    }
    const res = await session.client.request<Obj>(write.method, itemUrl(kind, id), {
      body: patch,
      ...(etag ? { headers: { "if-match": etag } } : {}),
    });
    if (opts.output || opts.jq) printObject(out, res.body, opts);
    else out(`${kind.name} ${id} changed (${Object.keys(patch).join(", ")})\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends a request; when the API answers 428 (a high-impact action), asks, then repeats it with the confirmation headers. */
export async function withConfirmation<T>(
  session: Session,
  method: string,
  path: string,
  what: string,
  yes: boolean | undefined,
  extra: { body?: unknown; query?: Record<string, string> } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const first = await session.client.request<T>(method, path, { ...extra, allow: [428] });
  if (first.status !== 428) return first;
  const refusal = first.body as { action?: string; required?: string[]; detail?: string };
  const action = refusal.action ?? "";
  if (!yes && !(await confirm(`${what} is a high-impact action ("${action}"). Go ahead? [y/N]`)))
    throw new CliError("not confirmed; nothing was changed", EXIT.failure);
  const headers: Record<string, string> = { "x-svc-confirmation": action, "idempotency-key": `lab-${randomUUID()}` };
  if (refusal.required?.includes("x-svc-backup-verified")) headers["x-svc-backup-verified"] = "true";
  return session.client.request<T>(method, path, { ...extra, headers });
}

export async function deleteCommand(session: Session, kindWord: string, refs: string[], opts: { yes?: boolean }): Promise<void> {
  const kind = await session.kind(kindWord);
  if (!kind.delete) throw usageError(`${kind.name} objects cannot be deleted through the API`);
  for (const ref of refs) {
    const id = await resolveId(session, kind, ref);
    await withConfirmation(session, "DELETE", itemUrl(kind, id), `Deleting ${kind.name} ${ref}`, opts.yes);
    out(`${kind.name} ${ref === id ? id : `${id} (${ref})`} deleted\n`);
  }
}
