// The two probes of an agent scan: a TCP connect (open when it connects; refused also proves the host
// is up) and one ICMP echo through the system ping. Both end at their timeout or on the abort signal.
import { spawn } from "node:child_process";
import { Socket } from "node:net";

export type ConnectOutcome = "open" | "refused" | "silent";

export function connectPort(host: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<ConnectOutcome> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (r: ConnectOutcome) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(r);
    };
    const onAbort = () => done("silent");
    const timer = setTimeout(() => done("silent"), timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => done("open"));
    socket.once("error", (e: NodeJS.ErrnoException) => done(e.code === "ECONNREFUSED" ? "refused" : "silent"));
    socket.connect({ host, port });
  });
}

/** One echo request; true when the host answered within the timeout. */
export function ping(pingPath: string, host: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const waitS = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
    const child = spawn(pingPath, ["-n", "-c", "1", "-W", waitS, host], { stdio: "ignore" });
    const kill = () => child.kill("SIGKILL");
    const timer = setTimeout(kill, timeoutMs + 500);
    signal.addEventListener("abort", kill, { once: true });
    const end = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", kill);
      resolve(ok);
    };
    child.once("error", () => end(false));
    child.once("exit", (code) => end(code === 0));
  });
}
