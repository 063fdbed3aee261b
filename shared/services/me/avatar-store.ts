// Where uploaded avatars live. There is no object storage yet, so the Node processes keep them under
// DATA_DIR/user-icons (sidecar/runtime/avatar-store.ts); on the edge there is none (Deps.avatarStore absent).
export interface AvatarStore {
  save(name: string, bytes: Uint8Array): Promise<void>;
  /** undefined when there is no such file. */
  read(name: string): Promise<Uint8Array | undefined>;
  /** Succeeds when the file is already gone. */
  remove(name: string): Promise<void>;
}

/** `<user id>-<32 hex>.<ext>`: a new name per upload, so a served file never changes and caches forever. */
const AVATAR_NAME = /^[1-9][0-9]{0,9}-[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

/** True only for names this service gives out: never a path, never a dot-segment. */
export function isAvatarName(name: string): boolean {
  return AVATAR_NAME.test(name);
}

export const AVATAR_MAX_BYTES = 512 * 1024;
