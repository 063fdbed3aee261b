// PGlite's file system on Node (its NodeFS) with the data directory's files kept private. Emscripten
// chmods every file it creates to the mode the database asked for (0666 in PGlite's build), which undoes
// the process umask: base/1/112, pg_hba.conf and PG_VERSION came out world-writable. Here the modes that
// reach the disk, at creation and on chmod, lose their group and other bits.
import type { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { PRIVATE_UMASK } from "./data-dir.ts";

type Attr = { mode?: number };
type NodeOps = {
  mknod(parent: unknown, name: string, mode: number, dev: number): unknown;
  setattr(node: unknown, attr: Attr): void;
};
type StreamOps = { setattr(stream: unknown, attr: Attr): void };

const privateMode = (mode: number) => mode & ~PRIVATE_UMASK;

/** Wraps the module's NODEFS operations once (NODEFS is per PGlite module instance). */
function makePrivate(fs: { node_ops: NodeOps; stream_ops: StreamOps }): void {
  const { node_ops, stream_ops } = fs;
  const mknod = node_ops.mknod.bind(node_ops);
  const setattr = node_ops.setattr.bind(node_ops);
  const streamSetattr = stream_ops.setattr.bind(stream_ops);
  node_ops.mknod = (parent, name, mode, dev) => mknod(parent, name, privateMode(mode), dev);
  node_ops.setattr = (node, attr) => setattr(node, attr.mode === undefined ? attr : { ...attr, mode: privateMode(attr.mode) });
  stream_ops.setattr = (stream, attr) => streamSetattr(stream, attr.mode === undefined ? attr : { ...attr, mode: privateMode(attr.mode) });
}

const wrapped = new WeakSet<object>();

export class PrivateNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS["init"]>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const preRun = [
      (mod: { NODEFS: unknown }) => {
        const fs = mod.NODEFS as { node_ops: NodeOps; stream_ops: StreamOps };
        if (wrapped.has(fs)) return;
        wrapped.add(fs);
        makePrivate(fs);
      },
      ...(emscriptenOpts.preRun ?? []),
    ];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}
