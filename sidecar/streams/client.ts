// One UI socket from handshake to close: the WSS requirement, authentication (the handshake credential,
// or the first-frame token where the stream allows it), its subscription, pings, the idle limit,
// backpressure and a periodic credential re-check. Close codes are spec 6.6's: 1008 with the reason
// (unauthorized, forbidden, wss_required, auth_timeout, malformed_frame), 1013 for limits, 1011 for
// unexpected errors, 1001 on drain, 1000 when an idle peer is let go.
import type { IncomingMessage } from "node:http";
import type { RawData, WebSocket } from "ws";
import type { Db } from "../../shared/db/database.ts";
import type { Deps } from "../../shared/deps.ts";
import { resolveCredential } from "../../shared/identity/credential.ts";
import type { CidrSet } from "../../shared/net/cidr.ts";
import { type Actor, actorCan } from "../../shared/verbs/actor.ts";
import type { StreamDef } from "../../shared/streams/catalogue.ts";
import { type ClientFrame, handshakeCredential, isSecureHandshake, parseClientFrame } from "./handshake.ts";
import type { ChannelHub, Subscriber } from "./hub.ts";
import type { StreamOptions } from "./options.ts";

/** What every socket of the process shares: its limits are counted here. */
export interface ClientEnv {
  deps: Deps;
  db: Db;
  hub: ChannelHub;
  options: StreamOptions;
  trustedProxies: CidrSet;
  clients: Set<StreamClient>;
  /** Open sockets per user key (see userKey). */
  users: Map<string, number>;
  /** Sockets waiting for their first-frame token. */
  pending: { count: number };
}

export type ClientState = "handshake" | "awaiting_token" | "open" | "closed";

/** The user a connection cap counts against (WebSocket and event streams alike); the legacy static token has no user of its own. */
export const userKey = (actor: Actor) => (actor.userId === null ? actor.kind : `user:${actor.userId}`);

export class StreamClient implements Subscriber {
  readonly def: StreamDef;
  readonly #ws: WebSocket;
  readonly #env: ClientEnv;
  #state: ClientState = "handshake";
  #credential: string | undefined;
  #userKey: string | undefined;
  #lastHeard = performance.now();
  #validatedAt = 0;
  #tokenTimer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #work: Promise<void> = Promise.resolve();
  readonly #closed: Promise<void>;

  constructor(ws: WebSocket, def: StreamDef, env: ClientEnv, req: IncomingMessage) {
    this.#ws = ws;
    this.def = def;
    this.#env = env;
    env.clients.add(this);
    this.#closed = new Promise((resolve) => ws.once("close", () => resolve()));
    ws.on("message", (data: RawData, isBinary: boolean) => {
      this.#lastHeard = performance.now();
      this.#queue(() => this.#onFrame(isBinary ? { kind: "malformed" } : parseClientFrame(data.toString())));
    });
    // Browsers answer protocol pings by themselves: a live tab stays connected without a {type: "pong"}.
    ws.on("pong", () => (this.#lastHeard = performance.now()));
    ws.on("close", () => this.#release());
    ws.on("error", (e: Error) => env.deps.logger.debug("stream socket error", { stream: def.path, error: e.message }));
    this.#queue(() => this.#begin(req));
  }

  get state(): ClientState {
    return this.#state;
  }

  /** Forwards one event frame; a consumer that cannot keep up is dropped (1013), not buffered for. */
  deliver(frame: string): void {
    if (this.#state !== "open") return;
    if (this.#ws.bufferedAmount > this.#env.options.maxBufferedBytes) return this.close(1013, "backpressure");
    this.#ws.send(frame);
  }

  /** The ticker's visit: idle limit, ping, and the credential re-check when it is due. */
  tick(now: number): void {
    const { idleTimeoutMs, revalidateMs } = this.#env.options;
    if (this.#state === "closed") return;
    if (now - this.#lastHeard > idleTimeoutMs) return this.close(1000, "idle_timeout");
    if (this.#state !== "open") return;
    this.#ws.send(JSON.stringify({ type: "ping" }));
    this.#ws.ping();
    if (now - this.#validatedAt >= revalidateMs) {
      this.#validatedAt = now;
      this.#queue(() => this.#revalidate());
    }
  }

  close(code: number, reason: string): void {
    if (this.#state === "closed") return;
    this.#release();
    this.#ws.close(code, reason);
  }

  /** Closes with `code` and waits up to `graceMs` for the peer's answer before cutting the connection. */
  async closeAndWait(code: number, reason: string, graceMs: number): Promise<void> {
    this.close(code, reason);
    let timer: NodeJS.Timeout | undefined;
    const cut = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.#closed, cut]);
    clearTimeout(timer);
    this.#ws.terminate();
  }

  #queue(step: () => Promise<void> | void): void {
    // One step at a time: a token frame that arrives while the handshake credential is still being
    // resolved waits for it.
    this.#work = this.#work.then(step).catch((e: unknown) => {
      this.#env.deps.logger.error("stream socket failed", { stream: this.def.path, error: String(e) });
      this.close(1011, "internal_error");
    });
  }

  async #begin(req: IncomingMessage): Promise<void> {
    const { deps, db, options, trustedProxies, pending } = this.#env;
    // Refused before any credential is read: it may have crossed the network in clear already, but
    // it is not honoured.
    if (deps.config.WS_REQUIRE_WSS && !isSecureHandshake(req, trustedProxies)) return this.close(1008, "wss_required");
    if (!(await deps.identity.isBootstrapped(db, deps.clock.now().getTime()))) return this.close(1008, "unauthorized");
    const presented = handshakeCredential(req);
    if (presented) {
      const resolution = await resolveCredential(deps, db, presented);
      if ("actor" in resolution) return this.#admit(resolution.actor, presented);
    }
    // A stale cookie on a first-frame stream is no refusal yet: the token frame may follow.
    if (!this.def.firstFrameAuth) return this.close(1008, "unauthorized");
    if (this.#state === "closed") return;
    if (pending.count >= options.maxPendingSockets) return this.close(1013, "too_many_pending");
    pending.count++;
    this.#state = "awaiting_token";
    this.#tokenTimer = setTimeout(() => this.close(1008, "auth_timeout"), options.firstFrameTimeoutMs);
  }

  async #onFrame(frame: ClientFrame): Promise<void> {
    if (this.#state === "awaiting_token") {
      if (frame.kind !== "auth") return this.close(1008, "malformed_frame");
      const resolution = await resolveCredential(this.#env.deps, this.#env.db, frame.token);
      return "actor" in resolution ? this.#admit(resolution.actor, frame.token) : this.close(1008, "unauthorized");
    }
    // docs/architecture.md, API contracts: clients send the token frame even when the cookie already let them in; it must
    // hold too, and name the same user.
    if (this.#state === "open" && frame.kind === "auth" && this.def.firstFrameAuth) {
      const resolution = await resolveCredential(this.#env.deps, this.#env.db, frame.token);
      if (!("actor" in resolution) || userKey(resolution.actor) !== this.#userKey) return this.close(1008, "unauthorized");
      if (!actorCan(resolution.actor, this.def.scope)) return this.close(1008, "forbidden");
      this.#credential = frame.token;
    }
    // Pongs and anything else only count as signs of life (already noted on arrival).
  }

  #admit(actor: Actor, credential: string): void {
    const { hub, users, options, deps } = this.#env;
    if (this.#state === "closed") return;
    if (!actorCan(actor, this.def.scope)) return this.close(1008, "forbidden");
    const key = userKey(actor);
    const open = users.get(key) ?? 0;
    if (open >= options.maxConnectionsPerUser) return this.close(1013, "too_many_connections");
    this.#leavePending();
    users.set(key, open + 1);
    this.#userKey = key;
    this.#credential = credential;
    this.#validatedAt = performance.now();
    this.#state = "open";
    this.#unsubscribe = hub.subscribe(this.def.channel, this);
    this.#ws.send(JSON.stringify({ type: "ready", channel: this.def.channel, ts: deps.clock.now().toISOString() }));
  }

  async #revalidate(): Promise<void> {
    if (this.#state !== "open" || !this.#credential) return;
    const resolution = await resolveCredential(this.#env.deps, this.#env.db, this.#credential);
    if (!("actor" in resolution)) return this.close(1008, "unauthorized");
    if (!actorCan(resolution.actor, this.def.scope)) return this.close(1008, "forbidden");
  }

  #leavePending(): void {
    if (this.#state !== "awaiting_token") return;
    clearTimeout(this.#tokenTimer);
    this.#env.pending.count--;
  }

  #release(): void {
    if (this.#state === "closed") return;
    this.#leavePending();
    const { users, clients } = this.#env;
    if (this.#userKey) {
      const left = (users.get(this.#userKey) ?? 1) - 1;
      if (left > 0) users.set(this.#userKey, left);
      else users.delete(this.#userKey);
    }
    this.#unsubscribe?.();
    this.#credential = undefined;
    this.#state = "closed";
    clients.delete(this);
  }
}
