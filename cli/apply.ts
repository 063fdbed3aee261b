// `lab apply -f` and `lab diff -f` (docs/cli.md): a lab file checked here (lab-file.ts), then sent to
// POST /config/apply, which applies it in one transaction (or, for the diff, answers what it would
// do). A refusal prints every refused object with its file, line and reason.
import { writeFileSync } from "node:fs";
import { CliError } from "./exit.ts";
import { type LabEntry, type LabSchema, readLab } from "./lab-file.ts";
import { type OutputOptions, printObject } from "./output.ts";
import { yaml } from "./yaml.ts";
import type { Session } from "./session.ts";

const out = (text: string) => process.stdout.write(text);

interface Change {
  kind: string;
  key: string;
  id: number | null;
  action: "create" | "update" | "delete" | "unchanged";
  fields?: Record<string, { from: unknown; to: unknown }>;
}
interface ApplyResult {
  applied: boolean;
  counts: Record<string, number>;
  changes: Change[];
}

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v ?? null));
const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** One line per changed leaf: an object field (a monitor's config) shows only the members that differ. */
function changeLines(path: string, from: unknown, to: unknown): string[] {
  if (!isPlain(from) || !isPlain(to)) return [`    ${path}: ${show(from)} → ${show(to)}\n`];
  return [...new Set([...Object.keys(from), ...Object.keys(to)])]
    .filter((k) => JSON.stringify(from[k] ?? null) !== JSON.stringify(to[k] ?? null))
    .flatMap((k) => changeLines(`${path}.${k}`, from[k], to[k]));
}

export function formatChanges(changes: Change[]): string {
  let text = "";
  for (const c of changes) {
    if (c.action === "create") text += `+ ${c.kind}/${c.key}\n`;
    else if (c.action === "delete") text += `- ${c.kind}/${c.key}\n`;
    else if (c.action === "update") {
      text += `~ ${c.kind}/${c.key}\n`;
      for (const [f, d] of Object.entries(c.fields ?? {})) text += changeLines(f, d.from, d.to).join("");
    }
  }
  return text;
}

/** An apply refusal's issues, each named by the entry's file and line where the server names the entry. */
function refusal(e: CliError, entries: LabEntry[]): CliError {
  const body = e.body as { detail?: unknown } | undefined;
  if (!Array.isArray(body?.detail)) return e;
  const lines = (body.detail as { loc?: unknown[]; msg?: string }[]).map((d) => {
    const [, , where, field] = d.loc ?? [];
    const entry =
      typeof where === "string"
        ? entries.find((x) => `${x.kind}/${x.key}` === where)
        : typeof where === "number"
          ? entries[where]
          : undefined;
    const line = entry ? (typeof field === "string" && entry.lines[field]) || entry.line : undefined;
    return `${entry ? `${entry.file}:${line}: ${entry.kind}/${entry.key}` : String(where ?? "")}${typeof field === "string" ? ` ${field}` : ""}: ${d.msg ?? ""}`;
  });
  return new CliError(
    `${e.status} the server refused the apply; nothing was changed:\n  ${lines.join("\n  ")}`,
    e.exitCode,
    e.status,
    e.body,
  );
}

async function send(
  session: Session,
  path: string,
  prune: boolean,
  dryRun: boolean,
): Promise<{ result: ApplyResult; entries: LabEntry[] }> {
  const schema = (await session.client.get<LabSchema>("config/schema.json")).body;
  const lab = readLab(path, schema);
  try {
    const { body } = await session.client.request<ApplyResult>("POST", "config/apply", {
      body: { owner: lab.owner, prune, objects: lab.entries.map((e) => ({ kind: e.kind, key: e.key, fields: e.fields })) },
      ...(dryRun ? { query: { dry_run: "true" } } : {}),
    });
    return { result: body, entries: lab.entries };
  } catch (e) {
    throw e instanceof CliError ? refusal(e, lab.entries) : e;
  }
}

export async function diffCommand(session: Session, opts: OutputOptions & { file: string; prune?: boolean }): Promise<void> {
  const { result } = await send(session, opts.file, opts.prune === true, true);
  if (opts.output === "json" || opts.output === "yaml" || opts.jq) return printObject(out, result, opts);
  const text = formatChanges(result.changes);
  out(text || "No changes.\n");
  if (text)
    out(
      `\n${result.counts.create} to create, ${result.counts.update} to change, ${result.counts.delete} to delete, ${result.counts.unchanged} unchanged\n`,
    );
}

export async function applyCommand(session: Session, opts: OutputOptions & { file: string; prune?: boolean }): Promise<void> {
  const { result } = await send(session, opts.file, opts.prune === true, false);
  if (opts.output === "json" || opts.output === "yaml" || opts.jq) return printObject(out, result, opts);
  out(formatChanges(result.changes));
  out(
    `Applied: ${result.counts.create} created, ${result.counts.update} changed, ${result.counts.delete} deleted, ${result.counts.unchanged} unchanged\n`,
  );
}

/** `lab export -o yaml`: the inventory as a lab file (GET /config/export). */
export async function exportLabCommand(session: Session, opts: { file?: string; owner?: string }): Promise<void> {
  const { body } = await session.client.get("config/export", opts.owner ? { owner: opts.owner } : undefined);
  const text = `# yaml-language-server: $schema=${session.client.url("/api/v1/config/schema.json")}\n${yaml().stringify(body)}`;
  if (!opts.file || opts.file === "-") out(text);
  else writeFileSync(opts.file, text);
}
