// The commands that are not one kind's get/list/create/edit/delete: the live monitor view, alert
// acknowledgement, a discovery scan followed to its end, backups, the admin export and import.
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createParser } from "eventsource-parser";
import { CliError, EXIT, usageError } from "./exit.ts";
import { failIfRefused } from "./client.ts";
import { ListPrinter, type OutputOptions, printObject } from "./output.ts";
import { withConfirmation, readObjects } from "./resources.ts";
import type { Session } from "./session.ts";

type Obj = Record<string, unknown>;
const out = (text: string) => process.stdout.write(text);
const err = (text: string) => process.stderr.write(text);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const MONITOR_COLUMNS = ["id", "name", "status", "check_type", "latency_ms", "uptime_pct_24h", "last_msg"];

async function allMonitors(session: Session): Promise<Obj[]> {
  const all: Obj[] = [];
  for (let offset = 0; ; offset += 100) {
    const { body } = await session.client.get<{ items: Obj[]; total: number }>("monitors", { limit: 100, offset, sort: "name" });
    all.push(...body.items);
    if (body.items.length < 100 || all.length >= body.total) return all;
  }
}

function renderMonitors(monitors: Obj[], opts: OutputOptions): string {
  let text = "";
  const p = new ListPrinter((t) => (text += t), opts, MONITOR_COLUMNS, "name", process.stdout.columns);
  p.page(monitors);
  p.end();
  const counts = new Map<string, number>();
  for (const m of monitors) counts.set(String(m.status), (counts.get(String(m.status)) ?? 0) + 1);
  return `${text}\n${[...counts].map(([s, n]) => `${s}: ${n}`).join("  ")}\n`;
}

/**
 * The monitors and their states. With --watch (the default on a terminal) the view is redrawn whenever the
 * server's event stream (GET /events/stream, channel monitors) says a monitor or an alert changed.
 */
export async function monitorsStatusCommand(session: Session, opts: OutputOptions & { watch?: boolean }): Promise<void> {
  const watch = opts.watch ?? (process.stdout.isTTY === true && !opts.output && !opts.jq);
  const first = await allMonitors(session);
  if (!watch) {
    if (opts.output === "json" || opts.output === "yaml" || opts.jq) return printObject(out, first, opts);
    out(renderMonitors(first, opts));
    return;
  }
  const draw = (monitors: Obj[]) =>
    out(`\x1b[H\x1b[2J${new Date().toISOString()}  ${session.client.baseUrl}  (Ctrl-C to stop)\n\n${renderMonitors(monitors, opts)}`);
  draw(first);
  let lastId: string | undefined;
  for (;;) {
    const res = await session.client.fetch("/api/v1/events/stream", {
      query: { channels: "monitors" },
      headers: { accept: "text/event-stream", ...(lastId ? { "last-event-id": lastId } : {}) },
    });
    await failIfRefused(res);
    let pending: NodeJS.Timeout | undefined;
    const refresh = () => {
      if (pending) return;
      pending = setTimeout(async () => {
        pending = undefined;
        draw(await allMonitors(session));
      }, 250);
    };
    const parser = createParser({
      onEvent(ev) {
        if (ev.id) lastId = ev.id;
        if (ev.event === "monitors" || ev.event === "reset") refresh();
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    // The server ended the stream (a restart, a drain): reconnect with Last-Event-ID.
    await sleep(1000);
  }
}

export async function alertsAckCommand(
  session: Session,
  id: string,
  opts: OutputOptions & { note?: string; undo?: boolean },
): Promise<void> {
  if (!/^\d+$/.test(id)) throw usageError(`${id}: an alert id is a number`);
  const { body } = await session.client.request<Obj>(
    opts.undo ? "DELETE" : "POST",
    `alerts/${id}/acknowledge`,
    opts.undo ? {} : { body: opts.note ? { note: opts.note } : {} },
  );
  if (opts.output || opts.jq) return printObject(out, body, opts);
  out(`alert ${id} ${opts.undo ? "no longer acknowledged" : "acknowledged"} (${body.title ?? ""})\n`);
}

function bar(done: number, total: number, width = 30): string {
  const f = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(f * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(f * 100)).padStart(3)}%`;
}

export async function discoveryScanCommand(
  session: Session,
  cidr: string,
  opts: OutputOptions & { wait?: boolean; type?: string[]; ports?: string },
): Promise<void> {
  const body: Obj = { cidr };
  if (opts.type?.length) body.scan_types = opts.type;
  if (opts.ports) body.ports_preset = opts.ports;
  const created = (await session.client.request<Obj | Obj[]>("POST", "discovery/scan", { body })).body;
  const jobs = Array.isArray(created) ? created : [created];
  if (!opts.wait) {
    if (opts.output || opts.jq) return printObject(out, created, opts);
    for (const j of jobs) out(`discovery job ${j.id} ${j.status}\n`);
    return;
  }
  const final: Obj[] = [];
  for (const j of jobs) {
    let job = j;
    const tty = process.stderr.isTTY === true;
    let lastLine = "";
    while (job.status === "queued" || job.status === "running") {
      await sleep(500);
      job = (await session.client.get<Obj>(`discovery/jobs/${j.id}`)).body;
      const line = `job ${job.id} ${String(job.status).padEnd(9)} ${bar(Number(job.addresses_done ?? 0), Number(job.addresses_total ?? 0))} ${job.addresses_done ?? 0}/${job.addresses_total ?? 0} addresses, ${job.hosts_found ?? 0} hosts`;
      if (tty) err(`\r${line}`);
      else if (line !== lastLine) err(`${line}\n`);
      lastLine = line;
    }
    if (tty) err("\n");
    final.push(job);
  }
  if (opts.output || opts.jq) printObject(out, final.length === 1 ? final[0] : final, opts);
  else
    for (const j of final)
      out(
        `discovery job ${j.id} ${j.status}: ${j.hosts_found ?? 0} hosts found, ${j.hosts_new ?? 0} new${j.error_text ? ` (${j.error_text})` : ""}\n`,
      );
  const failed = final.find((j) => j.status !== "completed");
  if (failed) throw new CliError(`discovery job ${failed.id} ended ${failed.status}`, EXIT.failure);
}

async function download(session: Session, path: string, file: string): Promise<void> {
  const res = await session.client.fetch(path);
  await failIfRefused(res);
  if (file === "-") await pipeline(Readable.fromWeb(res.body as never), process.stdout);
  else await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file, { mode: 0o600 }));
}

export async function backupCreateCommand(session: Session, opts: OutputOptions & { download?: string | boolean }): Promise<void> {
  err("Taking a backup (the server answers once it is written and verified)...\n");
  const { body } = await session.client.request<{ backup: { filename: string; size_bytes?: number; sha256?: string } }>(
    "POST",
    "admin/db/backup",
  );
  const b = body.backup;
  if (opts.download) {
    const file = typeof opts.download === "string" ? opts.download : b.filename;
    await download(session, `/api/v1/admin/db/backups/${encodeURIComponent(b.filename)}`, file);
    err(`Downloaded to ${file}\n`);
  }
  if (opts.output || opts.jq) return printObject(out, body, opts);
  out(`backup ${b.filename} verified${b.sha256 ? ` (sha256 ${b.sha256})` : ""}\n`);
}

/** `lab export`: the inventory document of the admin export (JSON), streamed to a file or standard output. */
export async function exportInventoryCommand(session: Session, opts: { file?: string }): Promise<void> {
  return download(session, "/api/v1/admin/export", opts.file ?? "-");
}

export async function importInventoryCommand(
  session: Session,
  opts: OutputOptions & { file?: string; dryRun?: boolean; wipe?: boolean; yes?: boolean },
): Promise<void> {
  if (!opts.file) throw usageError("import needs -f FILE (an export document, JSON or YAML)");
  const [data] = readObjects(opts.file);
  const res = await withConfirmation<Obj>(
    session,
    "POST",
    "/api/v1/admin/import",
    "Replacing the whole inventory (wipe before import)",
    opts.yes,
    {
      body: { data, ...(opts.wipe ? { wipe_before_import: true } : {}) },
      ...(opts.dryRun ? { query: { dry_run: "true" } } : {}),
    },
  );
  if (opts.output || opts.jq) return printObject(out, res.body, opts);
  const kinds = (res.body.kinds ?? {}) as Record<string, { created: number; updated: number; unchanged: number }>;
  out(`${opts.dryRun ? "Dry run (nothing changed)" : "Imported"}:\n`);
  for (const [k, c] of Object.entries(kinds))
    if (c.created || c.updated) out(`  ${k}: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged\n`);
}
