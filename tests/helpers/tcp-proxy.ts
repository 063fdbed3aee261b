// A small TCP proxy for outage tests: put it between the app and PostgreSQL (or Redis), then cut() to
// destroy every piped connection and refuse new ones (accepted sockets are destroyed at once, so the
// client sees a reset instead of waiting for a connect timeout), and restore() to pipe again. blackhole()
// is a network partition where packets are dropped, not refused: connections stay open, new ones are
// accepted, and every byte either way is held unforwarded, so the client hears nothing at all; heal()
// forwards what was held and pipes again (as TCP retransmission delivers once the network is back). The
// listening port never changes, so the app's configuration stays valid across a cut.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** `host:port` the proxy listens on. */
  readonly address: string;
  /** Connections currently piped through (held ones included). */
  readonly open: number;
  /** Destroys every piped connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  /** Holds every byte of every connection, open or new, until heal(). */
  blackhole(): void;
  heal(): void;
  close(): Promise<void>;
}

type Pair = [client: Socket, upstream: Socket];

function pipe([client, upstream]: Pair): void {
  client.pipe(upstream);
  upstream.pipe(client);
}

/** Stops forwarding: what arrives stays in the sockets' buffers (and, once those fill, the kernel's). */
function hold([client, upstream]: Pair): void {
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
}

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const host = target.host ?? "127.0.0.1";
  const pairs = new Set<Pair>();
  let cut = false;
  let held = false;

  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect({ host, port: target.port });
    const pair: Pair = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    if (held) hold(pair);
    else pipe(pair);
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
    blackhole() {
      if (held) return;
      held = true;
      for (const pair of pairs) hold(pair);
    },
    heal() {
      if (!held) return;
      held = false;
      for (const pair of pairs) pipe(pair);
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut = true;
        held = false;
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
