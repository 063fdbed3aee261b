// One item of a section: what it shows (a monitor or an inventory service through the search picker, or
// a tag typed with the known tags offered) and the name the public sees.
import { Field, TextInput } from "../components/field.tsx";
import { RefPicker, type RefSource } from "../components/ref-picker.tsx";
import { GROUPS } from "../inventory/groups.ts";
import type { ItemDraft, ItemKind } from "./page-draft.ts";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const MONITORS: RefSource = {
  listPath: "/api/v1/monitors",
  itemPath: "/api/v1/monitors/{monitor_id}",
  idParam: "monitor_id",
  noun: "monitor",
};
const KINDS: Record<ItemKind, string> = {
  monitor: i18nKey("status-pages:item.kindMonitor"),
  service: i18nKey("status-pages:item.kindService"),
  tag: i18nKey("status-pages:item.kindTag"),
};
export const TAGS_LIST = "status-page-tags";

export function ItemFields({
  item,
  onItem,
  errors,
}: {
  item: ItemDraft;
  onItem: (change: Partial<ItemDraft>) => void;
  errors: Record<string, string>;
}) {
  const t = useT();
  const id = `item-${item.key}`;
  const err = (f: string) => errors[`${item.key}.${f}`];
  return (
    <div class="status-item-fields">
      <Field id={`${id}-kind`} label={t("status-pages:item.shows")} error={err("kind") ?? errors[item.key]}>
        {(a11y) => (
          <select
            {...a11y}
            value={item.kind}
            // A reference of one kind means nothing to another.
            onChange={(e) => onItem({ kind: (e.currentTarget as HTMLSelectElement).value as ItemKind, ref: "", tag: "" })}
          >
            {(Object.keys(KINDS) as ItemKind[]).map((k) => (
              <option key={k} value={k}>
                {t(KINDS[k])}
              </option>
            ))}
          </select>
        )}
      </Field>
      {item.kind === "tag" ? (
        <Field id={`${id}-tag`} label={t("status-pages:item.tag")} error={err("ref")}>
          {(a11y) => (
            <input
              {...a11y}
              list={TAGS_LIST}
              value={item.tag}
              onInput={(e) => onItem({ tag: (e.currentTarget as HTMLInputElement).value })}
            />
          )}
        </Field>
      ) : (
        <Field
          id={`${id}-ref`}
          label={item.kind === "monitor" ? t("status-pages:item.monitor") : t("status-pages:item.service")}
          error={err("ref")}
        >
          {(a11y) => (
            <RefPicker
              source={item.kind === "monitor" ? { ...MONITORS, noun: t("status-pages:item.monitorNoun") } : GROUPS.services}
              value={item.ref}
              onValue={(ref) => onItem({ ref })}
              a11y={a11y}
            />
          )}
        </Field>
      )}
      <TextInput
        id={`${id}-public-name`}
        label={t("status-pages:item.publicName")}
        value={item.public_name}
        error={err("public_name")}
        hint={item.kind === "tag" ? t("status-pages:item.publicNameTag") : t("status-pages:item.publicNameHint")}
        onValue={(public_name) => onItem({ public_name })}
      />
    </div>
  );
}
