// The command line: `npm run agent -- --server URL [--state-dir DIR] [--server-key HEX] [--tls-pin PIN]
// [--name NAME] [--log-level LEVEL]`, or as the installer runs it: `enroll --config FILE` (enroll, then
// exit), `run --config FILE` (the service), and `uninstall --config FILE` (tell the server;
// agent/uninstall.ts). Flags override the file. Exit codes: agent.ts EXIT (75: restart me, after a
// self-update or its rollback).
import { readFileSync } from "node:fs";
import { Agent, type AgentExit, EXIT } from "./agent.ts";
import { ConfigError, parseConfig } from "./config.ts";
import { releaseKeyId } from "../shared/agents/release.ts";
import { isTlsPin } from "../shared/agents/tls-pin.ts";
import { consoleLog, isLogLevel, LOG_LEVELS, type LogLevel } from "./log.ts";
import { AGENT_VERSION } from "./payloads.ts";
import { RELEASE_PUBLIC_KEY } from "./release.ts";
import { uninstallMain } from "./uninstall.ts";

export const USAGE = `usage: agent [enroll|run|uninstall] [--config FILE] --server URL [--state-dir DIR] [--server-key HEX]
             [--tls-pin BASE64] [--name NAME] [--log-level ${LOG_LEVELS.join("|")}] [--spool-cap-bytes N]
             [--update-link-deadline-seconds N]`;

export interface CliOptions {
  mode: "run" | "enroll";
  serverUrl: string;
  stateDir: string;
  serverKey: string | undefined;
  /** base64 SHA-256 of the server certificate's SubjectPublicKeyInfo (agent/tls-pin.ts). */
  tlsPin: string | undefined;
  name: string | undefined;
  logLevel: LogLevel;
  spoolCapBytes: number | undefined;
  updateLinkDeadlineS: number | undefined;
}

export class UsageError extends Error {
  override name = "UsageError";
}

const FLAGS = new Set([
  "--server",
  "--state-dir",
  "--server-key",
  "--tls-pin",
  "--name",
  "--log-level",
  "--config",
  "--spool-cap-bytes",
  "--update-link-deadline-seconds",
]);

export function parseArgs(argv: readonly string[], readFile: (path: string) => string = (p) => readFileSync(p, "utf8")): CliOptions {
  const args = [...argv];
  let mode: CliOptions["mode"] = "run";
  if (args[0] === "enroll" || args[0] === "run") mode = args.shift() as CliOptions["mode"];
  const flags = new Map<string, string>();
  while (args.length) {
    const arg = args.shift()!;
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (!FLAGS.has(flag)) throw new UsageError(`unknown argument ${arg}`);
    const value = inline ?? args.shift();
    if (value === undefined || value === "") throw new UsageError(`${flag} needs a value`);
    flags.set(flag, value);
  }
  const configPath = flags.get("--config");
  let file: ReturnType<typeof parseConfig> = {};
  if (configPath) {
    try {
      file = parseConfig(readFile(configPath));
    } catch (e) {
      throw new UsageError(e instanceof ConfigError ? `${configPath}: ${e.message}` : `cannot read ${configPath}: ${(e as Error).message}`);
    }
  }
  const serverUrl = flags.get("--server") ?? file.server_url;
  if (!serverUrl) throw new UsageError("--server URL is required (or server_url in --config)");
  try {
    const u = new URL(serverUrl);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
  } catch {
    throw new UsageError(`--server ${serverUrl} is not an http(s) URL`);
  }
  const serverKey = flags.get("--server-key") ?? file.server_static_pk;
  if (serverKey !== undefined && !/^[0-9a-f]{64}$/.test(serverKey)) throw new UsageError("--server-key is 64 lowercase hex characters");
  const tlsPin = flags.get("--tls-pin") ?? file.tls_pin;
  if (tlsPin !== undefined && !isTlsPin(tlsPin))
    throw new UsageError("--tls-pin (tls_pin) is the base64 SHA-256 of the server certificate's public key: 44 characters ending in =");
  const logLevel = flags.get("--log-level") ?? file.log_level ?? "info";
  if (!isLogLevel(logLevel)) throw new UsageError(`--log-level is one of ${LOG_LEVELS.join(", ")}`);
  const capText = flags.get("--spool-cap-bytes");
  const spoolCapBytes = capText !== undefined ? Number(capText) : file.spool_cap_bytes;
  if (spoolCapBytes !== undefined && (!Number.isSafeInteger(spoolCapBytes) || spoolCapBytes < 65_536))
    throw new UsageError("--spool-cap-bytes is an integer of at least 65536");
  const deadlineText = flags.get("--update-link-deadline-seconds");
  const updateLinkDeadlineS = deadlineText !== undefined ? Number(deadlineText) : file.update_link_deadline_seconds;
  if (
    updateLinkDeadlineS !== undefined &&
    (!Number.isSafeInteger(updateLinkDeadlineS) || updateLinkDeadlineS < 1 || updateLinkDeadlineS > 86_400)
  )
    throw new UsageError("--update-link-deadline-seconds is an integer from 1 to 86400");
  return {
    mode,
    serverUrl: serverUrl.replace(/\/+$/, ""),
    // The installed service keeps its state beside the system's; a hand-run agent in the working directory.
    stateDir: flags.get("--state-dir") ?? file.state_dir ?? (configPath ? "/var/lib/svc-agent" : "./.agent-state"),
    serverKey,
    tlsPin,
    name: flags.get("--name") ?? file.name,
    logLevel,
    spoolCapBytes,
    updateLinkDeadlineS,
  };
}

/** The pairing code, framed so it stands out in a terminal or the installer's output. */
export function pairingBanner(code: string, serverUrl: string, magicLink: string | null): string {
  const line = "=".repeat(60);
  const link = magicLink ? `${serverUrl}${magicLink}` : `${serverUrl}/agents`;
  return `\n${line}\n  PAIRING CODE:  ${code}\n  Approve this agent in the control plane: ${link}\n${line}\n`;
}

/** Runs the agent as a process; resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "uninstall") return uninstallMain(() => parseArgs(argv.slice(1)));
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`agent: ${(e as Error).message}\n${USAGE}\n`);
    return EXIT.usage;
  }
  const log = consoleLog(opts.logLevel);
  log.debug(
    `agent ${AGENT_VERSION}; release key ${RELEASE_PUBLIC_KEY ? releaseKeyId(RELEASE_PUBLIC_KEY) : "none (this agent accepts no build)"}`,
  );
  let agent: Agent;
  try {
    agent = new Agent({
      mode: opts.mode,
      serverUrl: opts.serverUrl,
      stateDir: opts.stateDir,
      serverKey: opts.serverKey,
      tlsPin: opts.tlsPin,
      name: opts.name,
      log,
      spoolCapBytes: opts.spoolCapBytes,
      updateLinkDeadlineS: opts.updateLinkDeadlineS,
      onEvent: (e) => {
        if (e.type === "pairing_code") process.stdout.write(pairingBanner(e.code.pairing_code, opts.serverUrl, e.code.magic_link));
        if (e.type === "linked") process.stdout.write(`agent: linked as agent ${e.agent_id}\n`);
      },
    });
  } catch (e) {
    log.error(`cannot start: ${(e as Error).message}`);
    return EXIT.error;
  }
  const stop = () => agent.stop();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const exit: AgentExit = await agent.run();
  if (exit.reason === "revoked" || exit.reason === "rejected") process.stderr.write(`agent: ${exit.message}\n`);
  return exit.code;
}
