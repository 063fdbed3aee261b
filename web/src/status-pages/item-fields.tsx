// One item of a section: what it shows (a monitor or an inventory service through the search picker, or
// a tag typed with the known tags offered) and the name the public sees.
import { Field, TextInput } from "../components/field.tsx";
import { RefPicker, type RefSource } from "../components/ref-picker.tsx";
import { GROUPS } from "../inventory/groups.ts";
import type { ItemDraft, ItemKind } from "./page-draft.ts";

const MONITORS: RefSource = {
  listPath: "/api/v1/monitors",
  itemPath: "/api/v1/monitors/{monitor_id}",
  idParam: "monitor_id",
  noun: "monitor",
};
const KINDS: Record<ItemKind, string> = { monitor: "Monitor", service: "Inventory service", tag: "Tag (its monitors follow the tag)" };
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
  const id = `item-${item.key}`;
  const err = (f: string) => errors[`${item.key}.${f}`];
  return (
    <div class="status-item-fields">
      <Field id={`${id}-kind`} label="Shows" error={err("kind") ?? errors[item.key]}>
        {(a11y) => (
          <select
            {...a11y}
            value={item.kind}
            // A reference of one kind means nothing to another.
            onChange={(e) => onItem({ kind: (e.currentTarget as HTMLSelectElement).value as ItemKind, ref: "", tag: "" })}
          >
            {(Object.keys(KINDS) as ItemKind[]).map((k) => (
              <option key={k} value={k}>
                {KINDS[k]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {item.kind === "tag" ? (
        <Field id={`${id}-tag`} label="Tag" error={err("ref")}>
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
        <Field id={`${id}-ref`} label={item.kind === "monitor" ? "Monitor" : "Service"} error={err("ref")}>
          {(a11y) => (
            <RefPicker
              source={item.kind === "monitor" ? MONITORS : GROUPS.services}
              value={item.ref}
              onValue={(ref) => onItem({ ref })}
              a11y={a11y}
            />
          )}
        </Field>
      )}
      <TextInput
        id={`${id}-public-name`}
        label="Public name"
        value={item.public_name}
        error={err("public_name")}
        hint={item.kind === "tag" ? "Optional: the tag's name is shown without one" : "What the public sees instead of the internal name"}
        onValue={(public_name) => onItem({ public_name })}
      />
    </div>
  );
}
