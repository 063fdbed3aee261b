// The authentication keys the http and websocket check types share (check-types.ts): none, basic
// (username + password) or bearer (token); the password and the token are secrets (sealed, answered
// masked). net/checks/http.ts turns them into the Authorization header for both.
import * as v from "valibot";
import { NullableText, oneOf } from "./config-fields.ts";

export const HTTP_AUTH_TYPES = ["none", "basic", "bearer"] as const;

export const HTTP_AUTH_RULES = {
  auth_type: v.optional(oneOf(HTTP_AUTH_TYPES)),
  username: NullableText(200),
  password: NullableText(1000),
  token: NullableText(4000),
} satisfies v.ObjectEntries;

export const HTTP_AUTH_DEFAULTS = { auth_type: "none", username: null, password: null, token: null } as const;

export const HTTP_AUTH_SECRET_KEYS = ["password", "token"] as const;
