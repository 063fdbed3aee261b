// The server's Noise static key (docs/architecture.md, how an agent frame flows; spec/catalogue.tsv, group agents). One X25519
// keypair per installation, made on first use, its private half a vault ciphertext. A rotation adds a
// `successor` that live agents hear of (`key.rotate {kind: "server"}`, sent by the sidecar on the
// agent_control "server_key" notice) and that the link accepts alongside the current key until the overlap
// ends; then settleServerKeyRotation promotes it and retires the old key.
import { and, asc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { AGENT_CONTROL_CHANNEL } from "../../agents/control.ts";
import { bytesToHex, hexToBytes } from "../../auth/encoding.ts";
import type { Db } from "../../db/database.ts";
import { agentServerKeys, agents } from "../../db/schema/index.ts";
import { keyFingerprint } from "../../domain/agents/fingerprint.ts";
import { ApiError } from "../../errors.ts";
import { generateKeyPair } from "../../noise/index.ts";
import type { Vault } from "../../vault/vault.ts";
import { assertVaultWritable } from "../vault/writable.ts";
import { defineRead, defineVerb, type VerbScope } from "../verb.ts";
import { ADMIN_AGENTS } from "./scopes.ts";
import { vaultOf } from "../verb-context.ts";

/** How long both keys are accepted after a rotation starts (the original's default). */
export const ROTATION_OVERLAP_MS = 7 * 24 * 3600_000;
/** The vault context of a server private key: a ciphertext moved to another row does not open. */
const privateKeyContext = (publicKeyHex: string) => `agent_server_keys.private_key:${publicKeyHex}`;

type KeyRow = typeof agentServerKeys.$inferSelect;

export interface ServerPublicKey {
  id: number;
  public_key: string;
  fingerprint: string;
  created_at: Date;
}

/** A key the link accepts, with its private half opened. */
export interface LinkServerKey extends ServerPublicKey {
  state: "current" | "successor";
  secretKey: Uint8Array;
  overlap_expires_at: Date | null;
}

async function newKeyRow(
  db: Db,
  vault: Vault,
  now: Date,
  state: "current" | "successor",
  extra: Partial<KeyRow> = {},
): Promise<Omit<KeyRow, "id">> {
  await assertVaultWritable(db, vault, now);
  const pair = generateKeyPair();
  const public_key = bytesToHex(pair.publicKey);
  return {
    public_key,
    private_key: await vault.encrypt(bytesToHex(pair.secretKey), privateKeyContext(public_key)),
    fingerprint: keyFingerprint(pair.publicKey),
    state,
    created_at: now,
    activated_at: state === "current" ? now : null,
    rotation_started_at: null,
    overlap_expires_at: null,
    retired_at: null,
    ...extra,
  };
}

const publicOf = (r: KeyRow): ServerPublicKey => ({
  id: r.id,
  public_key: r.public_key,
  fingerprint: r.fingerprint,
  created_at: r.created_at,
});

/** The current key, made now when the installation has none (a unique index keeps two starts from making two). */
export async function currentServerPublicKey(db: Db, vault: Vault, now: Date): Promise<ServerPublicKey> {
  const [found] = await db.select().from(agentServerKeys).where(eq(agentServerKeys.state, "current"));
  if (found) return publicOf(found);
  await db
    .insert(agentServerKeys)
    .values(await newKeyRow(db, vault, now, "current"))
    .onConflictDoNothing();
  const [row] = await db.select().from(agentServerKeys).where(eq(agentServerKeys.state, "current"));
  return publicOf(row!);
}

/** The keys a handshake may be made to, current first, private halves opened (the sidecar; never answered by HTTP). */
export async function linkServerKeys(db: Db, vault: Vault, now: Date): Promise<LinkServerKey[]> {
  await currentServerPublicKey(db, vault, now);
  const rows = await db
    .select()
    .from(agentServerKeys)
    .where(inArray(agentServerKeys.state, ["current", "successor"]))
    .orderBy(asc(agentServerKeys.id));
  const keys: LinkServerKey[] = [];
  for (const r of rows.sort((a, b) => (a.state === "current" ? -1 : b.state === "current" ? 1 : 0))) {
    const secretKey = hexToBytes(await vault.decrypt(r.private_key, privateKeyContext(r.public_key)));
    if (secretKey?.length !== 32) throw new Error(`server key ${r.id} holds no 32-byte secret`);
    keys.push({ ...publicOf(r), state: r.state as "current" | "successor", secretKey, overlap_expires_at: r.overlap_expires_at });
  }
  return keys;
}

async function keyRows(db: Db): Promise<{ current: KeyRow | undefined; successor: KeyRow | undefined }> {
  const rows = await db
    .select()
    .from(agentServerKeys)
    .where(inArray(agentServerKeys.state, ["current", "successor"]));
  return { current: rows.find((r) => r.state === "current"), successor: rows.find((r) => r.state === "successor") };
}

async function fleetCounts(db: Db, current: KeyRow, successor: KeyRow) {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      successor: sql<number>`count(*) filter (where ${agents.server_key_id} = ${successor.id})::int`,
      current: sql<number>`count(*) filter (where ${agents.server_key_id} = ${current.id})::int`,
    })
    .from(agents)
    .where(eq(agents.status, "active"));
  const total = row?.total ?? 0;
  const onSuccessor = row?.successor ?? 0;
  const onCurrent = row?.current ?? 0;
  return { total, successor: onSuccessor, current: onCurrent, unseen: total - onSuccessor - onCurrent };
}

async function statusOf(db: Db, current: KeyRow, successor: KeyRow | undefined) {
  const key = (r: KeyRow) => ({ public_key: r.public_key, fingerprint: r.fingerprint, created_at: r.created_at.toISOString() });
  return {
    ...key(current),
    successor: successor ? key(successor) : null,
    active: successor !== undefined,
    current_key_fingerprint: current.fingerprint,
    successor_key_fingerprint: successor?.fingerprint ?? null,
    started_at: successor?.rotation_started_at?.toISOString() ?? null,
    overlap_expires_at: successor?.overlap_expires_at?.toISOString() ?? null,
    fleet: successor ? await fleetCounts(db, current, successor) : null,
  };
}

export type ServerKeyStatusShape = Awaited<ReturnType<typeof statusOf>>;

export const serverKeyStatus = defineRead<undefined, ServerKeyStatusShape>({ scope: ADMIN_AGENTS }, async (ctx) => {
  const vault = vaultOf(ctx);
  await currentServerPublicKey(ctx.db, vault, ctx.clock.now());
  const { current, successor } = await keyRows(ctx.db);
  return statusOf(ctx.db, current!, successor);
});

export const pendingServerKeyAgents = defineRead<
  undefined,
  { id: number; hostname: string | null; name: string | null; last_seen_at: string | null; bucket: "current" | "unseen" }[]
>({ scope: ADMIN_AGENTS }, async (ctx) => {
  const { current, successor } = await keyRows(ctx.db);
  if (!current || !successor) return [];
  const rows = await ctx.db
    .select({
      id: agents.id,
      hostname: agents.hostname,
      name: agents.name,
      last_seen_at: agents.last_seen_at,
      server_key_id: agents.server_key_id,
    })
    .from(agents)
    .where(and(eq(agents.status, "active"), or(isNull(agents.server_key_id), ne(agents.server_key_id, successor.id))))
    .orderBy(asc(agents.id))
    .limit(200);
  return rows.map((r) => ({
    id: r.id,
    hostname: r.hostname,
    name: r.name,
    last_seen_at: r.last_seen_at?.toISOString() ?? null,
    bucket: r.server_key_id === current.id ? ("current" as const) : ("unseen" as const),
  }));
});

function announceRotation(s: VerbScope): void {
  s.emit(AGENT_CONTROL_CHANNEL, { agent_id: null, action: "server_key" });
}

/** POST /agents/server-key/rotate: a successor key, accepted beside the current one for ROTATION_OVERLAP_MS. */
export const rotateServerKey = defineVerb<undefined, ServerKeyStatusShape>({ scope: ADMIN_AGENTS }, async (s) => {
  const vault = vaultOf(s.ctx);
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext('agent_server_key_rotation'))`);
  await currentServerPublicKey(s.tx, vault, s.now);
  const { current, successor } = await keyRows(s.tx);
  if (successor)
    throw ApiError.conflict(`A server key rotation is already running; it ends at ${successor.overlap_expires_at?.toISOString()}.`);
  const overlap_expires_at = new Date(s.now.getTime() + ROTATION_OVERLAP_MS);
  const row = await newKeyRow(s.tx, vault, s.now, "successor", { rotation_started_at: s.now, overlap_expires_at });
  const [inserted] = await s.tx.insert(agentServerKeys).values(row).returning();
  s.audit({
    action: "agents.server_key_rotate",
    category: "agents",
    entity_type: "agent_server_key",
    entity_id: current!.id,
    diff: {
      current_key_fingerprint: current!.fingerprint,
      successor_key_fingerprint: row.fingerprint,
      overlap_expires_at: overlap_expires_at.toISOString(),
    },
  });
  announceRotation(s);
  return statusOf(s.tx, current!, inserted);
});

/**
 * Ends a rotation whose overlap has passed (the server_key_rotation job, hourly): the successor becomes
 * current and the old key is retired. The retired row stays for the record; the link loads only current
 * and successor keys, so agents still on the old key fail their handshake from then on and need the new
 * key (re-run the installer); GET /server-key/pending listed them while there was time.
 */
export const settleServerKeyRotation = defineVerb<undefined, { promoted: boolean }>({ scope: ADMIN_AGENTS }, async (s) => {
  await s.tx.execute(sql`select pg_advisory_xact_lock(hashtext('agent_server_key_rotation'))`);
  const { current, successor } = await keyRows(s.tx);
  if (!current || !successor?.overlap_expires_at || successor.overlap_expires_at > s.now) return { promoted: false };
  await s.tx.update(agentServerKeys).set({ state: "retired", retired_at: s.now }).where(eq(agentServerKeys.id, current.id));
  await s.tx.update(agentServerKeys).set({ state: "current", activated_at: s.now }).where(eq(agentServerKeys.id, successor.id));
  s.audit({
    action: "agents.server_key_promote",
    category: "agents",
    entity_type: "agent_server_key",
    entity_id: successor.id,
    diff: { retired_key_fingerprint: current.fingerprint, current_key_fingerprint: successor.fingerprint },
  });
  announceRotation(s);
  return { promoted: true };
});
