// The vault (docs/architecture.md, API contracts, 4): secrets at rest are AES-256-GCM ciphertexts (WebCrypto) under one
// installation key, each tagged with the id of the key that made it so a rotation can tell old from new.
// The ciphertext is bound to where it is stored (`context`, the additional authenticated data), so a
// value copied into another row or column fails its tag instead of decrypting there.
//
//   vault:v1:<key id>:<base64url 12-byte IV>:<base64url ciphertext+tag>
//
// Web-standard only: the functions on the edge hold the same key (SVC_VAULT_KEY) and decrypt alike.
import { base64UrlToBytes, bytesToBase64Url, bytesToHex, utf8Bytes } from "../auth/encoding.ts";
import { timingSafeEqual } from "../auth/constant-time.ts";

export const KEY_BYTES = 32;
const PREFIX = "vault:v1:";
const IV_BYTES = 12;

/** Where the key came from, as GET /health/vault names it. */
export type KeySource = "environment" | "file" | "none";

export type VaultErrorReason = "malformed" | "unknown_key" | "wrong_key" | "no_key";

export class VaultError extends Error {
  override name = "VaultError";
  readonly reason: VaultErrorReason;
  constructor(reason: VaultErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

interface LoadedKey {
  id: string;
  raw: Uint8Array;
  key: CryptoKey;
}

/** The key id: 16 hex of SHA-256 over a label and the key (names the key, reveals nothing of it). */
export async function keyIdOf(raw: Uint8Array): Promise<string> {
  const label = utf8Bytes("svc-vault-key-id:");
  const input = new Uint8Array(label.length + raw.length);
  input.set(label);
  input.set(raw, label.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", input));
  return bytesToHex(digest).slice(0, 16);
}

async function load(raw: Uint8Array): Promise<LoadedKey> {
  if (raw.length !== KEY_BYTES) throw new VaultError("malformed", `a vault key is ${KEY_BYTES} bytes`);
  const bytes = new Uint8Array(raw);
  const key = await crypto.subtle.importKey("raw", bytes, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  return { id: await keyIdOf(bytes), raw: bytes, key };
}

export function isCiphertext(value: string): boolean {
  return value.startsWith(PREFIX);
}

export class Vault {
  readonly source: KeySource;
  // Replaced only by adopt(): a rotation of a file-held key swaps them in place, under every holder.
  #current: LoadedKey | undefined;
  /** Keys that may still open older ciphertexts (a rotation in progress), by id. */
  #previous: Map<string, LoadedKey>;

  private constructor(source: KeySource, current: LoadedKey | undefined, previous: LoadedKey[]) {
    this.source = source;
    this.#current = current;
    this.#previous = new Map(previous.map((k) => [k.id, k]));
  }

  /** `current` encrypts; `previous` keys only decrypt (values written before a rotation). */
  static async open(source: KeySource, current: Uint8Array | undefined, previous: Uint8Array[] = []): Promise<Vault> {
    return new Vault(source, current ? await load(current) : undefined, await Promise.all(previous.map(load)));
  }

  /**
   * A vault that encrypts with `raw` and still opens everything this one opens (this key becomes a
   * previous one): what a rotation re-encrypts with.
   */
  async successor(raw: Uint8Array): Promise<Vault> {
    const next = await load(raw);
    const previous = [this.#current, ...this.#previous.values()].filter((k): k is LoadedKey => k !== undefined && k.id !== next.id);
    return new Vault(this.source, next, previous);
  }

  /** This vault, also opening what `raw` made (encrypting as before). */
  async alsoOpening(raw: Uint8Array): Promise<Vault> {
    const extra = await load(raw);
    return new Vault(this.source, this.#current, [...this.#previous.values(), extra]);
  }

  /** A copy of this vault's keys as they are now (to adopt back). */
  copy(): Vault {
    return new Vault(this.source, this.#current, [...this.#previous.values()]);
  }

  /** Takes `other`'s keys in place, so everything holding this instance uses them from now on. */
  adopt(other: Vault): void {
    this.#current = other.#current;
    this.#previous = new Map(other.#previous);
  }

  get loaded(): boolean {
    return this.#current !== undefined;
  }

  /** The id of the key new ciphertexts are made with. */
  get keyId(): string | undefined {
    return this.#current?.id;
  }

  get previousKeyIds(): string[] {
    return [...this.#previous.keys()];
  }

  async encrypt(plaintext: string, context: string): Promise<string> {
    const k = this.#current;
    if (!k) throw new VaultError("no_key", "the vault has no key loaded");
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: utf8Bytes(context) }, k.key, utf8Bytes(plaintext)),
    );
    return `${PREFIX}${k.id}:${bytesToBase64Url(iv)}:${bytesToBase64Url(sealed)}`;
  }

  async decrypt(ciphertext: string, context: string): Promise<string> {
    const parts = isCiphertext(ciphertext) ? ciphertext.slice(PREFIX.length).split(":") : [];
    const [id, ivText, sealedText] = parts;
    const iv = ivText ? base64UrlToBytes(ivText) : null;
    const sealed = sealedText ? base64UrlToBytes(sealedText) : null;
    if (parts.length !== 3 || !id || !iv || iv.length !== IV_BYTES || !sealed) throw new VaultError("malformed", "not a vault ciphertext");
    const k = this.#current?.id === id ? this.#current : this.#previous.get(id);
    if (!k) throw new VaultError("unknown_key", `the ciphertext was made with key ${id}, which is not loaded`);
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: new Uint8Array(iv), additionalData: utf8Bytes(context) },
        k.key,
        new Uint8Array(sealed),
      );
      return new TextDecoder().decode(plain);
    } catch {
      // The authentication tag failed: another key with a colliding id, a tampered value, or a wrong context.
      throw new VaultError("wrong_key", `the ciphertext does not open with key ${id}`);
    }
  }

  /** The key id a ciphertext names, without opening it. */
  static keyIdIn(ciphertext: string): string | undefined {
    return isCiphertext(ciphertext) ? ciphertext.slice(PREFIX.length).split(":")[0] : undefined;
  }

  /** Constant-time: does `candidate` (raw bytes) equal the current key? (POST /auth/vault-reset) */
  holds(candidate: Uint8Array): boolean {
    const k = this.#current;
    if (!k || candidate.length !== KEY_BYTES) return false;
    return timingSafeEqual(candidate, k.raw);
  }
}
