// One enrollment connection (/api/v1/agents/enroll): hello, then the server holds the socket open while
// the agent is pending. Each hello.ack with a pairing_code (a new one every 15 minutes) is shown to the
// operator; hello.ack {status: "active"} (approved, or already enrolled) or {status: "rejected"} decides.
import type { Connection } from "./connection.ts";
import type { AgentLog } from "./log.ts";
import { refusalOf } from "./session.ts";

export type EnrollEnd =
  | { kind: "active"; agentId: number | null }
  | { kind: "rejected" | "revoked"; reason: string }
  | { kind: "lost"; code: number; reason: string };

export interface PairingCode {
  agent_id: number | null;
  pairing_code: string;
  magic_link: string | null;
}

export async function enroll(
  conn: Connection,
  hello: Record<string, unknown>,
  log: AgentLog,
  onCode: (code: PairingCode) => void,
): Promise<EnrollEnd> {
  let decided: EnrollEnd | undefined;
  let agentId: number | null = null;
  conn.onFrame((f) => {
    if (f.type !== "hello.ack") return;
    const p = f.payload;
    if (typeof p.agent_id === "number") agentId = p.agent_id;
    if (p.error === "clock_skew")
      log.error("the server refused the hello: this machine's clock is more than 60 s off; fix the clock (NTP)");
    else if (typeof p.error === "string") log.error(`the server refused the hello: ${p.error}`);
    if (typeof p.pairing_code === "string")
      onCode({ agent_id: agentId, pairing_code: p.pairing_code, magic_link: typeof p.magic_link === "string" ? p.magic_link : null });
    if (p.status === "active") decided = { kind: "active", agentId };
    if (p.status === "rejected") decided = { kind: "rejected", reason: "the enrollment was rejected" };
  });
  conn.send("hello", hello);
  const closed = await conn.closed;
  if (decided) return decided;
  const refusal = refusalOf(closed.reason);
  if (closed.code === 1008 && (refusal === "revoked" || refusal === "rejected")) return { kind: refusal, reason: closed.reason };
  return { kind: "lost", code: closed.code, reason: closed.reason };
}
