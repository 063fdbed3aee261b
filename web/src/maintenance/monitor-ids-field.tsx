// The monitors a maintenance window lists by id: each chosen one by name (a link, with Remove), and a
// search picker that adds another. The API's 422 on `monitor_ids` (an unknown monitor, or nothing
// covered at all) is shown with the field.
import { useEffect, useRef } from "preact/hooks";
import { api, ok } from "../api/client.ts";
import { Field } from "../components/field.tsx";
import { RefPicker, type RefSource } from "../components/ref-picker.tsx";
import { useT } from "../i18n/use-t.ts";
import { Link } from "../router.tsx";
import { useLoad } from "../use-load.ts";

// Its noun is given in the active language where the picker is drawn.
const MONITORS: RefSource = {
  listPath: "/api/v1/monitors",
  itemPath: "/api/v1/monitors/{monitor_id}",
  idParam: "monitor_id",
  noun: "monitor",
};

function Chosen({ id, onRemove }: { id: number; onRemove: () => void }) {
  const t = useT();
  const m = useLoad(() => ok(api.GET("/api/v1/monitors/{monitor_id}", { params: { path: { monitor_id: String(id) } } })), [id]);
  const name = m.data?.name ?? t("maintenance:monitorN", { id });
  return (
    <li>
      <Link href={`/monitors/${id}`}>{name}</Link>{" "}
      <button type="button" class="link" onClick={onRemove} aria-label={t("maintenance:remove.label", { name })}>
        {t("maintenance:remove.button")}
      </button>
    </li>
  );
}

export function MonitorIdsField({ ids, onIds, error }: { ids: number[]; onIds: (ids: number[]) => void; error: string | undefined }) {
  const t = useT();
  // A pick remounts the picker empty (its key), ready for the next one; the focus goes back into it.
  const picked = useRef(false);
  useEffect(() => {
    if (!picked.current) return;
    picked.current = false;
    document.getElementById("window-monitors")?.focus();
  }, [ids.length]);
  const add = (id: string) => {
    if (id === "" || ids.includes(Number(id))) return;
    picked.current = true;
    onIds([...ids, Number(id)]);
  };
  return (
    <Field id="window-monitors" label={t("maintenance:monitors.add")} error={error} hint={t("maintenance:monitors.hint")}>
      {(a11y) => (
        <>
          <RefPicker key={ids.length} source={{ ...MONITORS, noun: t("maintenance:monitors.noun") }} value="" onValue={add} a11y={a11y} />
          {ids.length > 0 && (
            <ul class="chosen-monitors" aria-label={t("maintenance:monitors.covered")}>
              {ids.map((id) => (
                <Chosen key={id} id={id} onRemove={() => onIds(ids.filter((x) => x !== id))} />
              ))}
            </ul>
          )}
        </>
      )}
    </Field>
  );
}
