// A real Debian Mosquitto (2.x speaks MQTT 3.1.1 and MQTT 5) for tests, on a loopback port: found on
// PATH or /usr/sbin (a missing package fails the test saying so), its users' password file made with
// mosquitto_passwd, configured in a temp dir, ready once the port accepts (bounded), its log kept (it
// names each client's protocol: "as <client id> (p5, ..." for MQTT 5, p2 for 3.1.1), killed and
// cleaned up by stop().
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { findDebianCommand } from "./debian-command.ts";
import { freePort } from "./free-port.ts";

export interface Mosquitto {
  port: number;
  process: ChildProcess;
  /** What the broker logged so far. */
  log(): string;
  stop(): void;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** Mosquitto on 127.0.0.1 with these `users` (name: password); anonymous clients are let in too. */
export async function startMosquitto(opts: { users: Record<string, string> }): Promise<Mosquitto> {
  const dir = mkdtempSync(join(tmpdir(), "mosquitto-"));
  const passwd = join(dir, "passwd");
  writeFileSync(passwd, "");
  for (const [user, password] of Object.entries(opts.users))
    execFileSync(findDebianCommand("mosquitto_passwd", "mosquitto"), ["-b", passwd, user, password]);
  const port = await freePort();
  const conf = join(dir, "mosquitto.conf");
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      // Run as root, mosquitto drops to its own user, who cannot read this private temp dir: stay who we are.
      `user ${userInfo().username}`,
      "allow_anonymous true",
      `password_file ${passwd}`,
      "persistence false",
      "log_dest stderr",
      "log_type all",
      "",
    ].join("\n"),
  );
  const child = spawn(findDebianCommand("mosquitto", "mosquitto"), ["-c", conf], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout?.on("data", (b: Buffer) => void (log += b.toString()));
  child.stderr?.on("data", (b: Buffer) => void (log += b.toString()));
  const stop = () => {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 50; i++) {
    if (await accepts(port)) return { port, process: child, log: () => log, stop };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`mosquitto on 127.0.0.1:${port} did not accept within 5 s: ${log.slice(-500)}`);
}
