// smtp: the opening of a mail session and nothing more (RFC 5321): connect to config.port (25), the
// greeting must be 220, EHLO ehlo_name must be answered 250; with starttls, the server must offer
// STARTTLS, accept it (220) and present a certificate that passes the tls type's rules (cert.ts), then
// answer EHLO again over TLS; then QUIT. No mail is sent. Every reply is bounded in lines and bytes and
// the whole dialogue by the check's timeout. Latency: the connect time; with STARTTLS, the handshake
// time is a tls_handshake_ms sample and the certificate's days a cert_days_remaining sample.
import type { Duplex } from "node:stream";
import { EHLO_NAME } from "../../shared/domain/monitors/tls-config-fields.ts";
import { judgeCertificate } from "./cert.ts";
import { connectPlain, LineReader } from "./line-reader.ts";
import { type Check, type CheckSample, CheckConfigError, ConfigReader, failed, invalidConfig, succeeded } from "./result.ts";
import { handshake, type TlsRules, tlsRulesOf } from "./tls-handshake.ts";

const MAX_REPLY_LINES = 100;

interface Reply {
  code: number;
  /** The text of each line after the code. */
  lines: string[];
}

class Refusal extends Error {}

/** One reply: "250-..." lines continue it, "250 ..." (or a bare "250") ends it. */
async function readReply(reader: LineReader): Promise<Reply> {
  const lines: string[] = [];
  for (let i = 0; i < MAX_REPLY_LINES; i++) {
    const line = await reader.line();
    const m = /^(\d{3})([ -]?)(.*)$/.exec(line);
    if (!m) throw new Refusal(`not an SMTP reply: ${JSON.stringify(line.slice(0, 200))}`);
    lines.push(m[3] as string);
    if (m[2] !== "-") return { code: Number(m[1]), lines };
  }
  throw new Refusal(`a reply of more than ${MAX_REPLY_LINES} lines`);
}

async function command(stream: Duplex, reader: LineReader, line: string, expected: number, what: string): Promise<Reply> {
  stream.write(`${line}\r\n`);
  const reply = await readReply(reader);
  if (reply.code !== expected) throw new Refusal(`${what} answered ${reply.code} ${reply.lines.join(" ").slice(0, 200)}`);
  return reply;
}

const offersStartTls = (ehlo: Reply) => ehlo.lines.slice(1).some((l) => /^STARTTLS\b/i.test(l));

export const smtpCheck: Check = async (spec, signal) => {
  let port: number;
  let ehloName: string;
  let startTls: boolean;
  let rules: TlsRules;
  try {
    const config = new ConfigReader(spec.config);
    port = config.number("port", 25);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
    ehloName = config.string("ehlo_name", "localhost");
    if (!EHLO_NAME.test(ehloName)) throw new CheckConfigError("ehlo_name must be a host name or an address literal");
    startTls = config.boolean("starttls", false);
    rules = tlsRulesOf(config, spec.host);
  } catch (e) {
    return invalidConfig(e);
  }
  let connected: Awaited<ReturnType<typeof connectPlain>>;
  try {
    connected = await connectPlain(spec.host, port, signal, spec.reach?.lookup);
  } catch (e) {
    return failed(`connect to port ${port} failed: ${(e as Error).message}`);
  }
  const latency = connected.ms;
  let stream: Duplex = connected.socket;
  let reader = new LineReader(stream, signal);
  const extra: CheckSample[] = [];
  let stage = "the greeting";
  try {
    const greeting = await readReply(reader);
    if (greeting.code !== 220) return failed(`greeting ${greeting.code} ${greeting.lines.join(" ").slice(0, 200)}, not 220`, latency);
    stage = "EHLO";
    const ehlo = await command(stream, reader, `EHLO ${ehloName}`, 250, "EHLO");
    let tlsSummary = "";
    if (startTls) {
      if (!offersStartTls(ehlo)) return failed("no STARTTLS offered", latency);
      stage = "STARTTLS";
      await command(stream, reader, "STARTTLS", 220, "STARTTLS");
      reader.detach();
      stage = "the TLS handshake";
      const secured = await handshake({ host: spec.host, port, socket: connected.socket }, rules, signal);
      stream = secured.socket;
      extra.push({ metric: "tls_handshake_ms", value: secured.ms });
      const verdict = judgeCertificate(secured.socket, rules);
      if (verdict.days !== null) extra.push({ metric: "cert_days_remaining", value: verdict.days });
      if (!verdict.ok) return failed(verdict.problem, latency, extra);
      tlsSummary = `; STARTTLS ${secured.socket.getProtocol() ?? "TLS"}, ${verdict.summary}`;
      reader = new LineReader(stream, signal);
      stage = "EHLO over TLS";
      await command(stream, reader, `EHLO ${ehloName}`, 250, "EHLO over TLS");
    }
    stage = "QUIT";
    stream.write("QUIT\r\n");
    // The server's 221 is a courtesy: a session that got this far is up whatever QUIT answers.
    await readReply(reader).catch(() => null);
    return succeeded(`SMTP 220 ${(greeting.lines[0] ?? "").slice(0, 200)}${tlsSummary}`, latency, extra);
  } catch (e) {
    const reason = (e as Error).message;
    return failed(e instanceof Refusal ? reason : `${stage} failed: ${reason}`, latency, extra);
  } finally {
    // The TLS socket before the connection under it: with the connection destroyed first under a live
    // TLS socket, the test process died of SIGSEGV (Node 24).
    reader.detach();
    stream.destroy();
    connected.socket.destroy();
  }
};
