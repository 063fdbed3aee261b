// `svc-agent uninstall --config FILE`: what install-agent.sh --uninstall runs before it removes the
// agent. It links once with the stored device key and sends the `uninstall` frame (the agent revokes
// itself: shared/verbs/agents/link/uninstall.ts); the server commits it and closes the link 1000
// "uninstalled". Exit 0 when the server recorded it (or had revoked the agent already), 1 when it could
// not be told (unreachable, or no enrollment here): the installer then removes the agent anyway.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { EXIT } from "./agent.ts";
import { Connection, LinkClosed } from "./connection.ts";
import { hostFacts, readinessOfHost } from "./host.ts";
import { buildHello } from "./payloads.ts";
import { refusalOf } from "./session.ts";
import { AgentState } from "./state.ts";
import { handshakeKeys } from "./trust.ts";

export interface UninstallOptions {
  serverUrl: string;
  stateDir: string;
  name?: string | undefined;
}

/** Whole budget of the attempt: an unreachable server must not hold the uninstall up. */
const DEADLINE_MS = 15_000;
export const UNINSTALL_FRAME_REASON = "uninstalled on the host (install-agent.sh --uninstall)";

/** Tells the server; answers what happened, in a line for the operator. */
export async function tellServer(o: UninstallOptions, timeoutMs = DEADLINE_MS): Promise<{ told: boolean; message: string }> {
  const state = new AgentState(o.stateDir);
  const trust = state.server();
  if (trust?.status === "revoked") return { told: true, message: `agent ${trust.agent_id ?? "?"} was revoked already` };
  if (trust?.status !== "active" || trust.url !== o.serverUrl) return { told: false, message: `not enrolled with ${o.serverUrl}` };
  const device = state.deviceKey();
  const url = new URL("/api/v1/agents/link", o.serverUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  let lastError = "no server key to try";
  for (const key of handshakeKeys(trust, new Date())) {
    let conn: Connection;
    try {
      conn = await Connection.open({ url: url.toString(), device, serverKey: hexToBytes(key), timeoutMs: Math.min(timeoutMs, 10_000) });
    } catch (e) {
      if (e instanceof LinkClosed && e.code === 1008 && refusalOf(e.reason) === "revoked") {
        state.updateServer({ status: "revoked" });
        return { told: true, message: `agent ${trust.agent_id ?? "?"} was revoked already` };
      }
      lastError = (e as Error).message;
      continue;
    }
    conn.onFrame((f) => {
      if (f.type !== "hello.ack") return;
      if (f.payload.accepted === true) conn.send("uninstall", { reason: UNINSTALL_FRAME_REASON });
      else conn.close(1000, "link refused");
    });
    const facts = hostFacts(o.name);
    conn.send("hello", buildHello({ ...facts, device_pk: bytesToHex(device.publicKey), readiness: readinessOfHost(), spool_depth: 0 }));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const closed = await Promise.race([conn.closed, timedOut]);
    clearTimeout(timer);
    if (closed === "timeout") {
      conn.close(1000, "agent uninstalling");
      return { told: false, message: `the server did not answer within ${timeoutMs} ms` };
    }
    if (closed.code === 1000 && closed.reason === "uninstalled") {
      state.updateServer({ status: "revoked" });
      return { told: true, message: `the server recorded agent ${trust.agent_id ?? "?"} as uninstalled` };
    }
    return { told: false, message: `the server closed the link ${closed.code}${closed.reason ? ` (${closed.reason})` : ""}` };
  }
  return { told: false, message: `cannot reach ${o.serverUrl}: ${lastError}` };
}

/** The CLI's `uninstall` subcommand; `parse` reads its flags (the same as `run`'s). */
export async function uninstallMain(parse: () => UninstallOptions): Promise<number> {
  let o: UninstallOptions;
  try {
    o = parse();
  } catch (e) {
    process.stderr.write(`agent uninstall: ${(e as Error).message}\nusage: agent uninstall --config FILE\n`);
    return EXIT.usage;
  }
  const { told, message } = await tellServer(o).catch((e: Error) => ({ told: false, message: e.message }));
  (told ? process.stdout : process.stderr).write(`agent: ${message}\n`);
  return told ? EXIT.stopped : EXIT.error;
}
