// A push monitor's token (docs/adr/0439): 32 random bytes in base64url, the secret part of its push URL.
// Only its SHA-256 is stored (monitors.push_token_hash): a token has 256 bits of entropy, so a plain
// hash, unlike a password's, cannot be searched, and one index lookup finds the monitor of a push.
import { sha256 } from "@noble/hashes/sha2.js";
import type { Random } from "../../../clock.ts";
import { bytesToBase64Url, bytesToHex, utf8Bytes } from "../../../auth/encoding.ts";

const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding: 43 characters. */
export const PUSH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newPushToken = (random: Random): string => bytesToBase64Url(random.bytes(TOKEN_BYTES));

export const pushTokenHash = (token: string): string => bytesToHex(sha256(utf8Bytes(token)));

/** Where the monitor's owner sends pushes. */
export const pushUrl = (serverUrl: string, token: string): string => `${serverUrl.replace(/\/+$/, "")}/api/v1/push/${token}`;
