// The MariaDB server the mysql check is tested against: 127.0.0.1:3306, root with an empty password
// (Debian's mariadb-server, scripts/test-packages.txt). The CI machine runs it; where it is installed
// but down, it is started here (bounded); where it is missing, the test fails saying so.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";

const MARIADBD = "/usr/sbin/mariadbd";

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: "127.0.0.1", port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });

export async function ensureMariadb(port = 3306): Promise<void> {
  if (await listening(port)) return;
  if (!existsSync(MARIADBD)) throw new Error("mariadbd is not installed: this test needs Debian's mariadb-server package.");
  execFileSync("start-stop-daemon", ["--start", "--oknodo", "--background", "--exec", MARIADBD]);
  for (let i = 0; i < 60; i++) {
    if (await listening(port)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`mariadbd started but nothing listens on 127.0.0.1:${port} after 30 s.`);
}
