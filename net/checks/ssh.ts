// ssh: connect to config.port (22) and read the server's identification line (RFC 4253 4.2: it may send
// other lines first; the one starting "SSH-" counts). Up when it speaks protocol 2 ("SSH-2.0-", or
// "SSH-1.99-", which takes both) and, when config.expected_banner is set, the line contains it. The
// message names the server's software version; the connect time is the latency. Nothing is sent: the
// check closes before the key exchange, which the server logs as a closed pre-auth connection.
import { connectPlain, LineReader } from "./line-reader.ts";
import { type Check, CheckConfigError, ConfigReader, failed, invalidConfig, succeeded } from "./result.ts";

/** RFC 4253: the identification line is at most 255 bytes; the lines before it share this bound. */
const MAX_PRELUDE_BYTES = 8 * 1024;
const MAX_LINES = 32;

export const sshCheck: Check = async (spec, signal) => {
  let port: number;
  let expected: string | null;
  try {
    const config = new ConfigReader(spec.config);
    port = config.number("port", 22);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
    expected = config.string("expected_banner", null);
  } catch (e) {
    return invalidConfig(e);
  }
  let connected: Awaited<ReturnType<typeof connectPlain>>;
  try {
    connected = await connectPlain(spec.host, port, signal, spec.reach?.lookup);
  } catch (e) {
    return failed(`connect to port ${port} failed: ${(e as Error).message}`);
  }
  const reader = new LineReader(connected.socket, signal, MAX_PRELUDE_BYTES);
  try {
    let banner: string | null = null;
    for (let i = 0; i < MAX_LINES && banner === null; i++) {
      const line = await reader.line();
      if (line.startsWith("SSH-")) banner = line;
    }
    if (banner === null) return failed(`no SSH identification line in the first ${MAX_LINES} lines`, connected.ms);
    const m = /^SSH-([^-\s]+)-([^\s]*)(?:\s+(.*))?$/.exec(banner);
    if (!m) return failed(`malformed SSH identification line: ${JSON.stringify(banner.slice(0, 255))}`, connected.ms);
    const [, protocol, software] = m as unknown as [string, string, string];
    if (protocol !== "2.0" && protocol !== "1.99") return failed(`SSH protocol ${protocol}, not 2.0 (${software})`, connected.ms);
    if (expected !== null && !banner.includes(expected))
      return failed(`banner ${JSON.stringify(banner)} does not contain ${JSON.stringify(expected)}`, connected.ms);
    return succeeded(`SSH ${protocol}, ${software}`, connected.ms);
  } catch (e) {
    return failed(`no SSH identification: ${(e as Error).message}`, connected.ms);
  } finally {
    reader.close();
  }
};
