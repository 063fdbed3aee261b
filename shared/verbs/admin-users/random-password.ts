import { bytesToBase64Url } from "../../auth/encoding.ts";
import type { Random } from "../../clock.ts";

/** 144 random bits as 24 URL-safe characters: well over the policy's minimum length. */
export function randomPassword(random: Random): string {
  return bytesToBase64Url(random.bytes(18));
}
