// One DNS exchange over TCP (RFC 1035 4.2.2, RFC 7766: two-byte length prefix), to a server an operator
// configured or a zone's name server. TCP rather than UDP: no truncation, no retransmission logic, and
// every RFC 2136 server takes updates over it. The outbound policy is enforced on the address actually
// connected to (a name is resolved first, and only an allowed address is used). Bounded by `timeoutMs`
// and the caller's signal.
import { lookup } from "node:dns/promises";
import { connect, isIP } from "node:net";
import { addressAllowed, type OutboundPolicy } from "../../../shared/domain/net/outbound-policy.ts";

export interface DnsServer {
  host: string;
  port: number;
}

export const serverLabel = (s: DnsServer) => (s.host.includes(":") ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`);

/** Thrown when the server cannot be reached or answers nothing usable; the message is operator-safe. */
export class DnsTransportError extends Error {
  override name = "DnsTransportError";
}

async function allowedAddress(host: string, policy: OutboundPolicy): Promise<string> {
  const addresses = isIP(host)
    ? [host]
    : (
        await lookup(host, { all: true }).catch((e: NodeJS.ErrnoException) => {
          throw new DnsTransportError(`${host} does not resolve (${e.code ?? e.message})`);
        })
      ).map((a) => a.address);
  const allowed = addresses.find((a) => addressAllowed(a, policy) === null);
  if (allowed) return allowed;
  throw new DnsTransportError(addresses.length ? (addressAllowed(addresses[0]!, policy) ?? "refused") : `${host} has no address`);
}

export async function exchange(
  server: DnsServer,
  message: Buffer,
  opts: { policy: OutboundPolicy; timeoutMs: number; signal?: AbortSignal },
): Promise<Buffer> {
  const address = await allowedAddress(server.host, opts.policy);
  return new Promise<Buffer>((resolve, reject) => {
    const socket = connect({ host: address, port: server.port });
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const fail = (why: string) => finish(new DnsTransportError(`${serverLabel(server)}: ${why}`));
    const timer = setTimeout(() => fail(`no answer within ${opts.timeoutMs} ms`), opts.timeoutMs);
    const onAbort = () => fail("cancelled");
    function finish(err: Error | null, answer?: Buffer) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve(answer!);
    }
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    socket.on("connect", () => {
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(message.length);
      socket.write(Buffer.concat([prefix, message]));
    });
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      received += chunk.length;
      const all = Buffer.concat(chunks);
      if (all.length >= 2 && all.length >= 2 + all.readUInt16BE(0)) finish(null, all.subarray(2, 2 + all.readUInt16BE(0)));
      else if (received > 70_000) fail("answer too large");
    });
    socket.on("error", (e: NodeJS.ErrnoException) => fail(e.code ?? e.message));
    socket.on("close", () => fail("connection closed before an answer"));
  });
}
