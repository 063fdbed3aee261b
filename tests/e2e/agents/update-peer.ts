// A test agent for rollouts: a real link client (the raw client of the sidecar tests: Noise IK, frames)
// that enrolls, links with the version it says it runs, keeps its link alive with heartbeats, and answers
// each `update` frame the way the test tells it: update.status started and then succeeded, failed or
// rolled_back, or `hold` (started only; the test settles it later with finish()). It does not install
// anything: the reference agent's self-update is tested on its own; this peer lets a test choose outcomes.
import type { Frame, ServerFrameType } from "../../../shared/agents/frames.ts";
import { generateKeyPair } from "../../../shared/noise/index.ts";
import { RawAgent } from "../../sidecar/agents/raw-client.ts";
import type { Product } from "../helpers.ts";
import type { Admin } from "./support.ts";
import { until } from "./support.ts";

export type UpdateAnswer = "succeeded" | "failed" | "rolled_back" | "hold";

const wsOf = (p: Product, path: "enroll" | "link") => `${p.url.replace(/^http/, "ws")}/api/v1/agents/${path}`;

export class UpdatePeer {
  readonly key = generateKeyPair();
  id = 0;
  /** What the peer says it runs (succeeded moves it to the new version, as a real agent's next hello would). */
  version: string;
  /** How the next `update` frames are answered. */
  answer: UpdateAnswer = "succeeded";
  /** Every `update` frame received, over all links. */
  readonly updates: Frame<ServerFrameType>[] = [];
  readonly platform: { os: string; arch: string };
  readonly hostname: string;
  #link: RawAgent | undefined;
  #beat: ReturnType<typeof setInterval> | undefined;

  constructor(hostname: string, version: string, platform = { os: "linux", arch: "amd64" }) {
    this.hostname = hostname;
    this.version = version;
    this.platform = platform;
  }

  #hello(agent: RawAgent): void {
    agent.hello({ hostname: this.hostname, agent_version: this.version, ...this.platform });
  }

  /** Enrolls and has the administrator approve it; answers its id. */
  async enroll(p: Product, serverKey: string, admin: Admin): Promise<number> {
    const e = new RawAgent(wsOf(p, "enroll"), this.key);
    await e.handshake(serverKey);
    this.#hello(e);
    this.id = (await e.next("hello.ack", 10_000)).payload.agent_id as number;
    await admin.call("POST", `agents/${this.id}/approve`, { host_link_action: "unlinked" });
    await e.closed;
    return this.id;
  }

  /** Links (again), and answers `update` frames from now on; retries while the product is not taking links yet (as agents back off and retry). */
  async link(p: Product, serverKey: string): Promise<void> {
    let last = "";
    await until(
      `agent ${this.id} linked`,
      () =>
        this.#tryLink(p, serverKey).then(
          () => true,
          (e: unknown) => void (last = String(e)),
        ),
      20_000,
      () => last,
      500,
    );
  }

  async #tryLink(p: Product, serverKey: string): Promise<void> {
    this.close();
    const agent = new RawAgent(wsOf(p, "link"), this.key);
    this.#link = agent;
    agent.onFrame = (frame) => {
      if (frame.type === "update") this.#onUpdate(frame);
    };
    await agent.handshake(serverKey);
    this.#hello(agent);
    const ack = await agent.next("hello.ack", 10_000);
    if (ack.payload.accepted !== true) throw new Error(`link refused: ${JSON.stringify(ack.payload)}`);
    this.#beat = setInterval(() => agent.frame("heartbeat", { spool_depth: 0 }), 2000);
  }

  #onUpdate(frame: Frame<ServerFrameType>): void {
    this.updates.push(frame);
    const version = String(frame.payload.version);
    this.#link!.frame("update.status", { version, phase: "started" });
    if (this.answer !== "hold") this.finish(this.answer, version);
  }

  /** Reports the update's outcome on the current link. */
  finish(phase: Exclude<UpdateAnswer, "hold">, version: string): void {
    const error = phase === "succeeded" ? undefined : `test peer told to answer ${phase}`;
    this.#link!.frame("update.status", { version, phase, ...(error ? { error } : {}) });
    if (phase === "succeeded") this.version = version;
  }

  /** Waits for the n-th `update` frame. */
  updateFrame(n = 1, ms = 15_000): Promise<Frame<ServerFrameType>> {
    return until(`update frame ${n} at agent ${this.id}`, () => this.updates[n - 1], ms);
  }

  close(): void {
    clearInterval(this.#beat);
    this.#link?.close();
    this.#link = undefined;
  }
}
