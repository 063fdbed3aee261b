// The Node avatar store: files under DATA_DIR/user-icons, written to a temporary name and renamed, so
// a reader never sees half a file. Only names the service gives out are accepted (no paths).
import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type AvatarStore, isAvatarName } from "../../shared/services/me/avatar-store.ts";

function pathOf(dir: string, name: string): string {
  if (!isAvatarName(name)) throw new Error(`not an avatar file name: ${JSON.stringify(name)}`);
  return join(dir, name);
}

const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === "ENOENT";

export function fileAvatarStore(dir: string): AvatarStore {
  return {
    async save(name, bytes) {
      const target = pathOf(dir, name);
      await mkdir(dir, { recursive: true });
      const temp = `${target}.${process.pid}.tmp`;
      await writeFile(temp, bytes, { mode: 0o644 });
      await rename(temp, target);
    },
    async read(name) {
      try {
        return new Uint8Array(await readFile(pathOf(dir, name)));
      } catch (e) {
        if (missing(e)) return undefined;
        throw e;
      }
    },
    async remove(name) {
      try {
        await unlink(pathOf(dir, name));
      } catch (e) {
        if (!missing(e)) throw e;
      }
    },
  };
}
