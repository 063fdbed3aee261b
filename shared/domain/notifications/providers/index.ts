// The notification providers, one file each (README.md: adding one is its file + one line here).
// Everything else — the accepted `provider_type`s, the sink form, config validation, secret sealing and
// masking, the sender — reads this list.
import { discord } from "./discord.ts";
import { email } from "./email.ts";
import { gotify } from "./gotify.ts";
import { ntfy } from "./ntfy.ts";
import type { NotificationProvider, ProviderField } from "./provider.ts";
import { slack } from "./slack.ts";
import { teams } from "./teams.ts";
import { telegram } from "./telegram.ts";
import { webhook } from "./webhook.ts";

export const NOTIFICATION_PROVIDERS = [webhook, slack, discord, teams, ntfy, gotify, telegram, email] as const satisfies readonly NotificationProvider[];

export type ProviderType = (typeof NOTIFICATION_PROVIDERS)[number]["type"];

export const PROVIDER_TYPES = NOTIFICATION_PROVIDERS.map((p) => p.type) as [ProviderType, ...ProviderType[]];

const BY_TYPE = new Map<string, NotificationProvider>(NOTIFICATION_PROVIDERS.map((p) => [p.type, p]));

export const isProviderType = (t: string): t is ProviderType => BY_TYPE.has(t);

export const providerOf = (type: ProviderType): NotificationProvider => BY_TYPE.get(type)!;

/** Each type's config keys (the sink form and validation read them). */
export const PROVIDERS = Object.fromEntries(NOTIFICATION_PROVIDERS.map((p): [string, Record<string, ProviderField>] => [p.type, p.fields])) as Record<ProviderType, Record<string, ProviderField>>;

export const secretKeys = (type: ProviderType): string[] => Object.entries(PROVIDERS[type]).filter(([, f]) => f.secret).map(([k]) => k);
