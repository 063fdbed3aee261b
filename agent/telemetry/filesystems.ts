// Mounted filesystems (/proc/mounts) and their use (statfs). Pseudo filesystems (proc, sysfs, cgroup...)
// are always left out; memory-backed and overlay ones (tmpfs, overlay, squashfs) only count as
// "virtual", reported when the grant's include_virtual asks for them. The root filesystem gives the
// summary's root_disk_pct.
import { statfsSync } from "node:fs";
import { pct, readText } from "./proc.ts";

const PSEUDO = new Set([
  "proc",
  "sysfs",
  "devpts",
  "cgroup",
  "cgroup2",
  "securityfs",
  "pstore",
  "debugfs",
  "tracefs",
  "configfs",
  "fusectl",
  "mqueue",
  "hugetlbfs",
  "bpf",
  "binfmt_misc",
  "autofs",
  "rpc_pipefs",
  "nsfs",
  "efivarfs",
  "selinuxfs",
  "devtmpfs",
]);
const VIRTUAL = new Set(["tmpfs", "ramfs", "overlay", "squashfs", "fuse.lxcfs", "shm", "zram"]);

export interface Mount {
  device: string;
  mountpoint: string;
  fstype: string;
}

export interface FilesystemUse {
  mountpoint: string;
  device: string;
  fstype: string;
  total_bytes: number;
  used_bytes: number;
  free_bytes: number;
  used_pct: number;
  inodes_total: number;
  inodes_free: number;
}

/** /proc/mounts escapes spaces and the like as octal (\040). */
const unescapeMount = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

export function parseMounts(text: string, includeVirtual: boolean): Mount[] {
  const seen = new Set<string>();
  const out: Mount[] = [];
  for (const line of text.split("\n")) {
    const [device, mountpoint, fstype] = line.split(" ");
    if (!device || !mountpoint || !fstype) continue;
    if (PSEUDO.has(fstype) || (!includeVirtual && VIRTUAL.has(fstype))) continue;
    const mp = unescapeMount(mountpoint);
    // A path mounted twice (bind mounts, stacked mounts) is reported once, as it is seen now.
    if (seen.has(mp)) continue;
    seen.add(mp);
    out.push({ device: unescapeMount(device), mountpoint: mp, fstype });
  }
  return out;
}

export function statFilesystem(mount: Mount): FilesystemUse | undefined {
  try {
    const s = statfsSync(mount.mountpoint);
    const total = s.blocks * s.bsize;
    if (total <= 0) return undefined;
    const free = s.bavail * s.bsize;
    // used as df shows it: total - free-for-root; the percentage over what non-root users can reach.
    const used = (s.blocks - s.bfree) * s.bsize;
    return {
      ...mount,
      total_bytes: total,
      used_bytes: used,
      free_bytes: free,
      used_pct: pct(used, used + free),
      inodes_total: s.files,
      inodes_free: s.ffree,
    };
  } catch {
    return undefined;
  }
}

export function readFilesystems(includeVirtual: boolean, procRoot = "/proc"): FilesystemUse[] {
  const text = readText(`${procRoot}/mounts`) ?? "";
  return parseMounts(text, includeVirtual)
    .map(statFilesystem)
    .filter((f): f is FilesystemUse => f !== undefined);
}

/** The root filesystem's use, whatever its type (an overlay root in a container still counts). */
export function rootDiskPct(): number | undefined {
  return statFilesystem({ device: "", mountpoint: "/", fstype: "" })?.used_pct;
}
