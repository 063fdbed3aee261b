// The lab file's API kinds (docs/adr/0507), in the order they are written: a kind after the kinds it
// names (routes name sinks; status pages name monitors), and deleted in the reverse order. A new kind
// is one file beside this one and one line here.
import type { ApiConfigKind } from "../api-kind.ts";
import { alertRoutesKind } from "./alert-routes.ts";
import { monitorsKind } from "./monitors.ts";
import { notificationSinksKind } from "./notification-sinks.ts";
import { statusPagesKind } from "./status-pages.ts";

export const API_KINDS: ApiConfigKind[] = [monitorsKind, notificationSinksKind, alertRoutesKind, statusPagesKind];
export const API_KIND_BY_KEY = new Map(API_KINDS.map((k) => [k.key, k]));
