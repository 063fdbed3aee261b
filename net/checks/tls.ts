// tls: the TLS certificate of any host:port (config.port, 443). A handshake sending SNI for server_name
// (default the monitor's host); up when the chain verifies (unless verify_chain is false; ca_pem names
// the trusted CAs instead of the system's), the certificate is for server_name (unless verify_hostname
// is false) and the leaf expires more than expiry_days (14) from now. The handshake time is the latency,
// the days left a cert_days_remaining sample; the message names the subject, issuer and SANs.
import { judgeCertificate } from "./cert.ts";
import { type Check, CheckConfigError, ConfigReader, failed, invalidConfig, succeeded } from "./result.ts";
import { handshake, type TlsRules, tlsRulesOf } from "./tls-handshake.ts";

export const tlsCheck: Check = async (spec, signal) => {
  let port: number;
  let rules: TlsRules;
  try {
    const config = new ConfigReader(spec.config);
    port = config.number("port", 443);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CheckConfigError("port must be an integer 1..65535");
    rules = tlsRulesOf(config, spec.host);
  } catch (e) {
    return invalidConfig(e);
  }
  let secured: Awaited<ReturnType<typeof handshake>>;
  try {
    secured = await handshake({ host: spec.host, port, lookup: spec.reach?.lookup }, rules, signal);
  } catch (e) {
    return failed(`TLS handshake with port ${port} failed: ${(e as Error).message}`);
  }
  try {
    const verdict = judgeCertificate(secured.socket, rules);
    const extra = verdict.days !== null ? [{ metric: "cert_days_remaining", value: verdict.days }] : [];
    return verdict.ok
      ? succeeded(`${secured.socket.getProtocol() ?? "TLS"}, ${verdict.summary}`, secured.ms, extra)
      : failed(verdict.problem, secured.ms, extra);
  } finally {
    secured.socket.destroy();
  }
};
