// Request and answer shapes of /status-pages* (docs/adr/0454-status-pages.md): the admin API's page with
// its sections and items, replaced as a whole when `sections` is given.
import * as v from "valibot";
import { ITEM_KEY_PATTERN } from "../domain/status-pages/item-keys.ts";
import { HexColour } from "./branding.ts";
import { OptionalText, patchBody, Ref, TagName, writeBody } from "./fields.ts";
import { listQuery, listResponse } from "./list-query.ts";

export const MAX_SECTIONS = 50;
export const MAX_ITEMS = 200;

const Slug = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, "A slug is 1-64 lower-case letters, digits and inner hyphens."),
);
const Title = v.pipe(v.string(), v.trim(), v.minLength(1, "Must not be empty."), v.maxLength(200));
const PublicName = v.pipe(v.string(), v.trim(), v.minLength(1, "Give the name the public sees."), v.maxLength(200));
// Only web addresses: a javascript: or data: logo would be an injection on a public page.
const LogoUrl = v.nullable(
  v.pipe(
    v.string(),
    v.maxLength(2000),
    v.check((s) => /^https?:\/\/[^\s"'<>]+$/i.test(s) || /^\/[^\s"'<>]*$/.test(s), "Must be an http(s) URL or a path starting with /."),
  ),
);
const Domain = v.nullable(
  v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.maxLength(253),
    v.regex(
      /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
      "Must be a host name such as status.example.com (no scheme, port or path).",
    ),
  ),
);

// The item's public address in its page (badge URLs, docs/adr/0461): send back the key a read returned to
// keep it across saves and renames; without one the save makes a slug of the public name.
const ItemKey = v.optional(
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.regex(ITEM_KEY_PATTERN, "A key is 1-64 lower-case letters, digits and inner hyphens."),
      v.description("The item's address in badge URLs, unique within the page; omitted: a slug of the public name."),
    ),
  ),
  null,
);
const MonitorItem = v.object({ kind: v.literal("monitor"), monitor_id: Ref, public_name: PublicName, key: ItemKey });
const ServiceItem = v.object({ kind: v.literal("service"), service_id: Ref, public_name: PublicName, key: ItemKey });
// A tag's public name is optional: the tag's own name is shown when none is given.
const TagItem = v.object({ kind: v.literal("tag"), tag: TagName, public_name: v.optional(v.nullable(PublicName), null), key: ItemKey });
const Item = v.variant("kind", [MonitorItem, ServiceItem, TagItem], 'kind must be "monitor", "service" or "tag".');
export type StatusPageItemInput = v.InferOutput<typeof Item>;

const Section = v.object({
  name: Title,
  show_messages: v.optional(v.boolean(), false),
  items: v.pipe(v.array(Item), v.maxLength(MAX_ITEMS)),
});
const Sections = v.pipe(v.array(Section), v.maxLength(MAX_SECTIONS));
export type StatusPageSectionInput = v.InferOutput<typeof Section>;

/** Automatic incident proposals (docs/adr/0456): off, or on with a delay before a draft is published (null: an operator publishes). */
export const AutoIncidents = v.object({
  enabled: v.boolean(),
  publish_after_secs: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(7 * 86_400))), null),
});
export type AutoIncidentsShape = v.InferOutput<typeof AutoIncidents>;

const entries = {
  slug: Slug,
  title: Title,
  description: OptionalText(5000),
  logo_url: v.optional(LogoUrl, null),
  primary_color: v.optional(v.nullable(HexColour), null),
  accent_color: v.optional(v.nullable(HexColour), null),
  footer_text: OptionalText(2000),
  published: v.optional(v.boolean(), false),
  custom_domain: v.optional(Domain, null),
  sections: v.optional(Sections, []),
  auto_incidents: v.optional(AutoIncidents, { enabled: false, publish_after_secs: null }),
};
export const StatusPageBody = writeBody(entries);
export type StatusPageCreate = v.InferOutput<typeof StatusPageBody>;
export const StatusPagePatchBody = patchBody({ ...entries, sections: Sections, auto_incidents: AutoIncidents });
export type StatusPagePatch = v.InferOutput<typeof StatusPagePatchBody>;

const ItemOut = v.object({
  kind: v.picklist(["monitor", "service", "tag"]),
  monitor_id: v.nullable(v.number()),
  service_id: v.nullable(v.number()),
  tag: v.nullable(v.string()),
  public_name: v.nullable(v.string()),
  /** Unique within the page: the item's badges are /badges/status-pages/{slug}/items/{key}/... (docs/adr/0461). */
  key: v.string(),
});
export const StatusPageOut = v.object({
  id: v.number(),
  slug: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  logo_url: v.nullable(v.string()),
  primary_color: v.nullable(v.string()),
  accent_color: v.nullable(v.string()),
  footer_text: v.nullable(v.string()),
  published: v.boolean(),
  custom_domain: v.nullable(v.string()),
  auto_incidents: v.object({ enabled: v.boolean(), publish_after_secs: v.nullable(v.number()) }),
  sections: v.array(v.object({ name: v.string(), show_messages: v.boolean(), items: v.array(ItemOut) })),
  created_at: v.string(),
  updated_at: v.string(),
});
export type StatusPageShape = v.InferInput<typeof StatusPageOut>;

export const STATUS_PAGE_SORTS = ["title", "slug", "id", "created_at"] as const;
export const StatusPageListQuery = listQuery(STATUS_PAGE_SORTS, {}, "title");
export const StatusPageList = listResponse(StatusPageOut);
