// Where a command of a Debian package the tests run is (scripts/test-packages.txt): on PATH, or in
// /usr/sbin or /sbin, which are not on a user's PATH on Debian (snmpd, mosquitto). A missing one fails
// the test saying which package to install.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

export function findDebianCommand(command: string, pkg: string): string {
  for (const dir of [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/sbin"]) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return join(dir, command);
    } catch {}
  }
  throw new Error(`${command} is not installed: this test needs Debian's ${pkg} package (apt-get install ${pkg}).`);
}
