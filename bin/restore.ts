// `npm run restore -- <archive> [--force] [--with-vault-key]`: offline restore of a backup or snapshot
// archive (runtime/backups/restore.ts, docs/backups.md). Exit 0 restored, 1 refused or failed (nothing changed when refused), 2 usage.
import { keepFilesPrivate } from "../runtime/data-dir.ts";
import { loadConfig } from "../runtime/node-deps.ts";
import { RestoreRefused, restore } from "../runtime/backups/restore.ts";

// The restored database and key land in DATA_DIR: the owner's only, as `npm start` keeps them.
keepFilesPrivate();
const args = process.argv.slice(2);
const force = args.includes("--force");
const withVaultKey = args.includes("--with-vault-key");
const rest = args.filter((a) => a !== "--force" && a !== "--with-vault-key");
if (rest.length !== 1 || rest[0]!.startsWith("-")) {
  process.stderr.write("usage: npm run restore -- <archive> [--force] [--with-vault-key]\n");
  process.exit(2);
}
const config = loadConfig();
try {
  await restore(config, { archive: rest[0]!, force, withVaultKey, log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write("restore complete: start the server\n");
} catch (e) {
  process.stderr.write(`restore ${e instanceof RestoreRefused ? "refused" : "failed"}: ${(e as Error).message}\n`);
  process.exit(1);
}
