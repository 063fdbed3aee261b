// icmp through the system `ping` (iputils), which needs no root: it uses an unprivileged ICMP socket
// where net.ipv4.ping_group_range allows, else its file capability. Its summary lines are parsed;
// packet_count echo requests 0.2 s apart, each reply waited for `timeout` seconds. A machine without
// ping, or where ping may not open its socket, fails the check with a message naming the cause.
import { spawn } from "node:child_process";
import { parsePing, pingFault } from "../ping-output.ts";
import { type Check, type CheckOutcome, ConfigReader, failed, invalidConfig, succeeded } from "./result.ts";

export function icmpOutcome(code: number | null, stdout: string, stderr: string): CheckOutcome {
  const fault = pingFault(stderr);
  if (fault) return failed(fault);
  const summary = parsePing(stdout);
  if (!summary) return failed(`ping failed: ${(stderr.trim() || stdout.trim() || `exit code ${code}`).split("\n")[0]}`);
  const loss = { metric: "packet_loss_pct", value: summary.loss_pct };
  if (summary.received === 0 || !summary.rtt) return failed(`no reply (${summary.transmitted} sent, 100% loss)`, null, [loss]);
  const { min, avg, max, mdev } = summary.rtt;
  return succeeded(`${summary.received}/${summary.transmitted} replies, ${avg} ms`, avg, [
    loss,
    { metric: "latency_min_ms", value: min },
    { metric: "latency_max_ms", value: max },
    { metric: "jitter_ms", value: mdev },
  ]);
}

export function icmpCheck(pingCommand = "ping"): Check {
  return (spec, signal, timeoutMs) =>
    new Promise((resolve) => {
      let count: number;
      try {
        const config = new ConfigReader(spec.config);
        count = Math.min(20, Math.max(1, Math.round(config.number("packet_count", 5))));
      } catch (e) {
        return resolve(invalidConfig(e));
      }
      if (!/^[\w.:-]+$/.test(spec.host)) return resolve(failed(`invalid host ${JSON.stringify(spec.host)}`));
      const waitS = Math.max(1, Math.ceil(timeoutMs / 1000));
      // -w: the whole run's deadline, so ping itself stops within the check's budget.
      const deadlineS = Math.ceil(0.2 * (count - 1) + timeoutMs / 1000);
      const args = ["-n", "-c", String(count), "-i", "0.2", "-W", String(waitS), "-w", String(deadlineS), spec.host];
      let stdout = "";
      let stderr = "";
      let settled = false;
      const finish = (outcome: CheckOutcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const child = spawn(pingCommand, args, {
        signal,
        stdio: ["ignore", "pipe", "pipe"],
        env: { LC_ALL: "C", PATH: process.env.PATH ?? "/usr/bin:/bin" },
      });
      child.stdout.on("data", (c: Buffer) => void (stdout.length < 65536 && (stdout += c.toString())));
      child.stderr.on("data", (c: Buffer) => void (stderr.length < 65536 && (stderr += c.toString())));
      child.on("error", (e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT")
          finish(
            failed(
              `icmp check cannot run: the system ping command (${pingCommand}) is not installed (Debian: apt-get install iputils-ping)`,
            ),
          );
        else if (e.name === "AbortError") finish(failed("timeout: ping did not finish in time"));
        else finish(failed(`icmp check cannot run: ${e.code ?? e.message}`));
      });
      child.on("close", (code) => finish(icmpOutcome(code, stdout, stderr)));
    });
}
