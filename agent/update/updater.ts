// The agent's side of self-update with rollback (docs/adr/0431-agent-self-update-and-rollback.md):
// - an `update` offer it can take is downloaded, verified (signature and SHA-256) before it is made
//   executable, installed as bin/svc-agent-<version>, put on trial (bin/trial, previous -> the running
//   version, current -> the new one), and the agent restarts (exit 75) into it;
// - started in a trial of its own version, the agent ends the trial once it links and reports
//   `succeeded`; not linked within the deadline, it restores the previous version itself and restarts;
// - started after a rollback (bin/rolled-back, the guard's or a trial's own), it reports `rolled_back`.
// Each report is an update.status frame on the live link; one the link could not carry is sent on the next.
// The restored agent ignores the one re-offer of the version it rolled back (docs/adr/0433-*).
import { chmodSync, renameSync, rmSync } from "node:fs";
import { CURRENT, ROLLED_BACK, TRIAL, versionedBinary } from "../../shared/agents/update-layout.ts";
import type { AgentLog } from "../log.ts";
import { verifyBuild } from "../release.ts";
import { BinDir } from "./bin-dir.ts";
import { downloadBuild, type Fetcher } from "./download.ts";
import { checkOffer, type UpdateOffer } from "./offer.ts";

/** How long a new version has to link before it restores the previous one. */
export const DEFAULT_LINK_DEADLINE_S = 120;

export type UpdateStatus = { version: string; phase: "started" | "succeeded" | "failed" | "rolled_back"; error?: string };
/** Sends update.status on the live link; false when there is none. */
export type SendStatus = (status: UpdateStatus) => boolean;

export interface UpdaterOptions {
  stateDir: string;
  serverUrl: string;
  /** What this agent is: its version, and its platform in the layout's names. */
  version: string;
  os: string;
  arch: string;
  /** The release public key builds must be signed with (agent/release.ts RELEASE_PUBLIC_KEY). */
  releaseKey: string | undefined;
  /** The running executable (process.execPath): it may replace itself only if it is bin/current. */
  execPath: string;
  linkDeadlineS?: number;
  /** How builds are downloaded; the agent passes its TLS-pinned fetch (default: plain fetch). */
  fetch?: Fetcher | undefined;
  log: AgentLog;
  /** Ends the agent with EXIT_RESTART, closing the link first; the service starts bin/current again. */
  restart(message: string): void;
}

export class Updater {
  readonly #o: UpdaterOptions;
  readonly #bin: BinDir;
  readonly #deadlineS: number;
  #onTrial = false;
  #deadline: NodeJS.Timeout | undefined;
  /** The version being downloaded and installed now. */
  #installing: string | undefined;
  /** Reports the link could not carry yet. */
  #unsent: UpdateStatus[] = [];
  /** The version just reported rolled back: the server offers it once more on that link (it was pending). */
  #stale: string | undefined;

  constructor(options: UpdaterOptions) {
    this.#o = options;
    this.#bin = new BinDir(options.stateDir);
    this.#deadlineS = options.linkDeadlineS ?? DEFAULT_LINK_DEADLINE_S;
  }

  /** At the start of a run: a trial of this version must link before its deadline. */
  start(): void {
    const trial = this.#bin.marker(TRIAL);
    if (!trial) return;
    if (trial.version !== this.#o.version) {
      this.#o.log.warn(`${this.#bin.path(TRIAL)} names version ${trial.version ?? "?"}, this agent is ${this.#o.version}: not its trial`);
      return;
    }
    this.#onTrial = true;
    this.#o.log.info(
      `version ${this.#o.version} is on trial (updated from ${trial.from ?? "?"}): it must link within ${this.#deadlineS} s`,
    );
    this.#deadline = setTimeout(() => this.#missedDeadline(), this.#deadlineS * 1000);
  }

  stop(): void {
    clearTimeout(this.#deadline);
  }

  /** The link is up (hello.ack accepted): ends a trial, and reports what happened since the last link. */
  linked(send: SendStatus): void {
    if (this.#onTrial) {
      clearTimeout(this.#deadline);
      this.#onTrial = false;
      this.#bin.endTrial();
      this.#o.log.info(`version ${this.#o.version} linked: the update succeeded`);
      this.#unsent.push({ version: this.#o.version, phase: "succeeded" });
      this.#prune();
    }
    const rolledBack = this.#bin.marker(ROLLED_BACK);
    if (rolledBack) {
      const version = (rolledBack.version ?? "unknown").slice(0, 64);
      const error = (rolledBack.error ?? "rolled back").slice(0, 2000);
      this.#o.log.warn(`version ${version} was rolled back (${error}); running ${this.#o.version}`);
      this.#unsent.push({ version, phase: "rolled_back", error });
      this.#bin.remove(ROLLED_BACK);
      this.#stale = version;
      this.#prune();
    }
    this.#unsent = this.#unsent.filter((status) => !send(status));
  }

  /** An `update` frame: refused at once with the reason, or installed and restarted into. */
  offer(payload: Record<string, unknown>, send: SendStatus): void {
    if (this.#stale !== undefined && payload.version === this.#stale) {
      this.#stale = undefined;
      this.#o.log.info(`the offer of version ${payload.version} is the one just rolled back: ignored (offer it again to retry)`);
      return;
    }
    const check = checkOffer(payload, {
      version: this.#o.version,
      os: this.#o.os,
      arch: this.#o.arch,
      releaseKey: this.#o.releaseKey,
      installed: this.#bin.runsFrom(this.#o.execPath),
      inProgress: this.#installing ?? this.#bin.marker(TRIAL)?.version,
    });
    if (!check.ok) {
      this.#o.log.warn(`update to version ${check.version} refused: ${check.error}`);
      send({ version: check.version, phase: "failed", error: check.error });
      return;
    }
    const { offer } = check;
    this.#installing = offer.version;
    this.#o.log.info(`updating to version ${offer.version}`);
    send({ version: offer.version, phase: "started" });
    this.#install(offer).then(
      () => this.#o.restart(`restarting into version ${offer.version}`),
      (e: unknown) => {
        this.#installing = undefined;
        const error = (e as Error).message.slice(0, 2000);
        this.#o.log.error(`update to version ${offer.version} failed: ${error}`);
        send({ version: offer.version, phase: "failed", error });
      },
    );
  }

  /** Download, verify, then install and put on trial; nothing is executable before it verified. */
  async #install(offer: UpdateOffer): Promise<void> {
    const target = versionedBinary(offer.version);
    const download = this.#bin.path(`${target}.download`);
    const build = { version: offer.version, os: offer.os, arch: offer.arch };
    try {
      await downloadBuild(this.#o.serverUrl, build, download, { fetch: this.#o.fetch });
      await verifyBuild(download, offer.sha256, offer.signature, this.#o.releaseKey, build);
      chmodSync(download, 0o755);
      renameSync(download, this.#bin.path(target));
    } catch (e) {
      rmSync(download, { force: true });
      throw e;
    }
    try {
      this.#bin.startTrial(offer.version, this.#o.version);
    } catch (e) {
      // Not swapped: no trial for the guard to count.
      if (this.#bin.link(CURRENT) !== target) this.#bin.remove(TRIAL);
      throw new Error(`cannot switch to the new build: ${(e as Error).message}`);
    }
  }

  #missedDeadline(): void {
    if (!this.#onTrial) return;
    const error = `did not link within ${this.#deadlineS} s`;
    try {
      this.#bin.rollBack(this.#o.version, error);
    } catch (e) {
      this.#o.log.error(`version ${this.#o.version} ${error}, and cannot roll back: ${(e as Error).message}; it keeps trying`);
      return;
    }
    this.#onTrial = false;
    this.#o.log.error(`version ${this.#o.version} ${error}: restored ${this.#bin.link(CURRENT)}; restarting`);
    this.#o.restart(`rolled back: version ${this.#o.version} ${error}`);
  }

  #prune(): void {
    try {
      const removed = this.#bin.prune();
      if (removed.length) this.#o.log.info(`removed ${removed.join(", ")} from ${this.#bin.dir}`);
    } catch (e) {
      this.#o.log.warn(`cannot remove old builds from ${this.#bin.dir}: ${(e as Error).message}`);
    }
  }
}
