// udp: one datagram (config.payload as UTF-8 text, or config.payload_hex as bytes; neither: an empty
// datagram) to host:config.port on a connected socket, then up on a reply: any reply, or, with
// config.expected_reply, one whose bytes contain it (a substring, ADR 0436; other replies are passed
// over). No reply before the timeout is down: UDP says nothing of a port that drops datagrams. A port
// nobody listens on usually answers ICMP port unreachable, which a connected socket reports as
// ECONNREFUSED: down at once, said as such. The round trip is the latency.
import { createSocket } from "node:dgram";
import { lookup as systemLookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { HEX_BYTES } from "../../shared/domain/monitors/grpc-websocket-udp-check-types.ts";
import {
  type Check,
  type CheckOutcome,
  CheckConfigError,
  ConfigReader,
  elapsed,
  failed,
  invalidConfig,
  reasonOf,
  succeeded,
} from "./result.ts";

/** A reply as the result shows it: its text when it is printable, else its first bytes in hex. */
function shown(reply: Buffer): string {
  const text = reply.toString("utf8");
  if (/^[\P{C}\t\r\n]*$/u.test(text) && !text.includes("\uFFFD"))
    return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
  const hex = reply
    .subarray(0, 32)
    .toString("hex")
    .replace(/(..)(?!$)/g, "$1 ");
  return `hex ${hex}${reply.length > 32 ? " ..." : ""}`;
}

/** The address to send to: an IP literal as is, a name through the monitor policy's lookup. */
function addressOf(host: string, lookup: LookupFunction | undefined): Promise<{ address: string; family: number }> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(bare);
  if (family !== 0) return Promise.resolve({ address: bare, family });
  return new Promise((resolve, reject) =>
    (lookup ?? systemLookup)(bare, {}, (e, address, fam) => (e ? reject(e) : resolve({ address: address as string, family: fam ?? 4 }))),
  );
}

function payloadOf(config: ConfigReader): Buffer {
  const text = config.string("payload", null);
  const hex = config.string("payload_hex", null);
  if (text !== null && hex !== null) throw new CheckConfigError("give payload or payload_hex, not both");
  if (hex === null) return Buffer.from(text ?? "", "utf8");
  if (!HEX_BYTES.test(hex)) throw new CheckConfigError("payload_hex must be hex bytes");
  return Buffer.from(hex.replace(/\s+/g, ""), "hex");
}

export const udpCheck: Check = async (spec, signal) => {
  let port: number;
  let payload: Buffer;
  let expected: Buffer | null;
  try {
    const config = new ConfigReader(spec.config);
    const configured = config.number("port", null);
    if (configured === null) throw new CheckConfigError("config.port is required");
    if (!Number.isInteger(configured) || configured < 1 || configured > 65535)
      throw new CheckConfigError("port must be an integer 1..65535");
    port = configured;
    payload = payloadOf(config);
    const text = config.string("expected_reply", null);
    expected = text !== null ? Buffer.from(text, "utf8") : null;
  } catch (e) {
    return invalidConfig(e);
  }
  let target: { address: string; family: number };
  try {
    target = await addressOf(spec.host, spec.reach?.lookup);
  } catch (e) {
    return failed(`lookup of ${spec.host} failed: ${reasonOf(e)}`);
  }
  if (signal.aborted) return failed("no reply: timeout");
  return new Promise<CheckOutcome>((resolve) => {
    const socket = createSocket(target.family === 6 ? "udp6" : "udp4");
    const start = performance.now();
    let passedOver = 0;
    let last: Buffer | null = null;
    let done = false;
    const finish = (outcome: CheckOutcome) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      socket.close();
      resolve(outcome);
    };
    const onAbort = () => {
      if (last === null) return finish(failed(`no reply from port ${port}: timeout`));
      finish(
        failed(
          `no reply containing ${JSON.stringify(expected?.toString("utf8"))} before the timeout (${passedOver} other replies, the last ${shown(last)})`,
        ),
      );
    };
    signal.addEventListener("abort", onAbort, { once: true });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      finish(
        failed(
          e.code === "ECONNREFUSED"
            ? `port ${port} unreachable: ECONNREFUSED (an ICMP port unreachable: nothing listens there)`
            : `udp failed: ${reasonOf(e)}`,
        ),
      );
    });
    socket.on("message", (reply) => {
      const ms = elapsed(start);
      if (expected === null || reply.includes(expected)) return finish(succeeded(`reply of ${reply.length} bytes: ${shown(reply)}`, ms));
      passedOver++;
      last = reply;
    });
    // Connected: only the target's datagrams arrive, and an ICMP unreachable reaches the socket.
    socket.connect(port, target.address, () => socket.send(payload));
  });
};
