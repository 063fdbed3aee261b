// The installed agent's bin/ folder (shared/agents/update-layout.ts has the layout, docs/adr/0431-*): its
// symlinks and marker files, each changed by writing a new one beside it and renaming it over the old,
// so a crash leaves either the old or the new state, never half of one. The same steps the sh guard takes.
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  BIN_DIR,
  CURRENT,
  formatMarker,
  parseMarker,
  PREVIOUS,
  ROLLED_BACK,
  TRIAL,
  TRIAL_STARTS,
  versionedBinary,
} from "../../shared/agents/update-layout.ts";

export class BinDir {
  readonly dir: string;

  constructor(stateDir: string) {
    this.dir = join(stateDir, BIN_DIR);
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  /** The target of symlink `name` as written (a file name in bin/), or undefined when it is not a symlink. */
  link(name: string): string | undefined {
    try {
      return readlinkSync(this.path(name));
    } catch {
      return undefined;
    }
  }

  /** Points symlink `name` at `target` (a file name in bin/): a new link renamed over the old. */
  point(name: string, target: string): void {
    const tmp = this.path(`${name}.new`);
    rmSync(tmp, { force: true });
    symlinkSync(target, tmp);
    renameSync(tmp, this.path(name));
  }

  /** The key=value lines of marker `name`, or undefined when there is none. */
  marker(name: string): Record<string, string> | undefined {
    try {
      return parseMarker(readFileSync(this.path(name), "utf8"));
    } catch {
      return undefined;
    }
  }

  writeMarker(name: string, fields: Record<string, string>): void {
    const tmp = this.path(`${name}.new`);
    writeFileSync(tmp, formatMarker(fields), { mode: 0o644 });
    renameSync(tmp, this.path(name));
  }

  remove(...names: string[]): void {
    for (const name of names) rmSync(this.path(name), { force: true });
  }

  /**
   * Whether `execPath` is the executable bin/current points at: the agent runs from the installed
   * layout and may replace itself. A checkout run with node, or a copy started elsewhere, may not.
   */
  runsFrom(execPath: string): boolean {
    try {
      return existsSync(this.path(CURRENT)) && realpathSync(this.path(CURRENT)) === realpathSync(execPath);
    } catch {
      return false;
    }
  }

  /**
   * Starts the trial the guard and the agent share: `previous` at the running executable, `current` at
   * version `version`'s (installed in bin/ already); `from` is the running version.
   */
  startTrial(version: string, from: string): void {
    const running = this.link(CURRENT);
    if (!running) throw new Error(`${this.path(CURRENT)} is not a symlink`);
    const installed = versionedBinary(version);
    if (!existsSync(this.path(installed))) throw new Error(`${this.path(installed)} is missing`);
    this.remove(TRIAL_STARTS);
    this.writeMarker(TRIAL, { version, from });
    this.point(PREVIOUS, running);
    this.point(CURRENT, installed);
  }

  /** Ends the trial the running version passed: it linked. */
  endTrial(): void {
    this.remove(TRIAL, TRIAL_STARTS);
  }

  /** What the guard does after too many starts, for a version that did not link in time. */
  rollBack(version: string, error: string): void {
    const previous = this.link(PREVIOUS);
    if (!previous) throw new Error(`there is no ${this.path(PREVIOUS)} to restore`);
    this.point(CURRENT, previous);
    this.writeMarker(ROLLED_BACK, { version, error });
    this.remove(TRIAL, TRIAL_STARTS);
  }

  /** Deletes the executables (and leftover downloads) neither `current` nor `previous` points at. */
  prune(): string[] {
    const keep = new Set([this.link(CURRENT), this.link(PREVIOUS)]);
    const removed: string[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.startsWith(versionedBinary("")) || keep.has(name)) continue;
      rmSync(this.path(name), { force: true });
      removed.push(name);
    }
    return removed;
  }
}
