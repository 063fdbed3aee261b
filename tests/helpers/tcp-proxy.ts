// A small TCP proxy for outage tests: put it between the app and PostgreSQL (or Redis), then cut() to
// destroy every piped connection and refuse new ones (accepted sockets are destroyed at once, so the
// client sees a reset instead of waiting for a connect timeout), and restore() to pipe again. The
// listening port never changes, so the app's configuration stays valid across a cut.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** `host:port` the proxy listens on. */
  readonly address: string;
  /** Connections currently piped through. */
  readonly open: number;
  /** Destroys every piped connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const host = target.host ?? "127.0.0.1";
  const pairs = new Set<[Socket, Socket]>();
  let cut = false;

  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect({ host, port: target.port });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;

  const destroyAll = () => {
    for (const [a, b] of [...pairs]) {
      a.destroy();
      b.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    address: `127.0.0.1:${port}`,
    get open() {
      return pairs.size;
    },
    cut() {
      cut = true;
      destroyAll();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut = true;
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
