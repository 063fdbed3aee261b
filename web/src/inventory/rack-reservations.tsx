// A rack's reserved units under its elevation (docs/racks.md, Reservations): each reservation's units,
// reason and who made it; "Reserve units" (first unit, how many, reason) with write:racks, Release with
// delete:racks and If-Match. A refusal (the units taken or past the top: a 409 naming what holds them) is
// shown on the form; the elevation is read again after each change.
import { useState } from "preact/hooks";
import { anyApi, ok } from "../api/client.ts";
import { messageOf } from "../api/problem.ts";
import { useSession } from "../auth/session.tsx";
import { useSubmit } from "../auth/use-submit.ts";
import { Field, Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";

export interface ReservationRow {
  id: number;
  first_unit: number;
  last_unit: number;
  u_count: number;
  reason: string;
  created_by: string | null;
  version: number;
}

export function RackReservations({ rackId, rows, onChanged }: { rackId: string; rows: readonly ReservationRow[]; onChanged: () => void }) {
  const t = useT();
  const session = useSession();
  const [first, setFirst] = useState("");
  const [count, setCount] = useState("1");
  const [reason, setReason] = useState("");
  const [releaseError, setReleaseError] = useState<string | undefined>();
  const submit = useSubmit();

  const reserve = (ev: Event) => {
    ev.preventDefault();
    void submit.run(async () => {
      await ok(
        anyApi.POST("/api/v1/racks/{rack_id}/reservations", {
          params: { path: { rack_id: rackId } },
          body: { first_unit: Number(first), u_count: Number(count), reason },
        }),
      );
      setFirst("");
      setCount("1");
      setReason("");
      onChanged();
    });
  };
  const release = async (r: ReservationRow) => {
    setReleaseError(undefined);
    try {
      await ok(
        anyApi.DELETE("/api/v1/racks/{rack_id}/reservations/{reservation_id}", {
          params: { path: { rack_id: rackId, reservation_id: String(r.id) } },
          headers: { "If-Match": `"${r.version}"` },
        }),
      );
    } catch (e) {
      setReleaseError(messageOf(e));
    }
    onChanged();
  };
  const input =
    (value: string, set: (v: string) => void, numeric: boolean) => (a11y: Parameters<Parameters<typeof Field>[0]["children"]>[0]) => (
      <input
        {...a11y}
        type="text"
        inputMode={numeric ? "numeric" : undefined}
        value={value}
        onInput={(e) => set((e.currentTarget as HTMLInputElement).value)}
      />
    );

  return (
    <section aria-labelledby="reservations-title">
      <h3 id="reservations-title">{t("racks:reservations.title")}</h3>
      <Notice kind="error">{releaseError}</Notice>
      {rows.length === 0 ? (
        <p class="empty">{t("racks:reservations.none")}</p>
      ) : (
        <ul class="rack-reservations">
          {rows.map((r) => (
            <li key={r.id}>
              {r.u_count > 1
                ? t("racks:elevation.units", { first: r.first_unit, last: r.last_unit })
                : t("racks:elevation.unit", { unit: r.first_unit })}
              : {r.reason}
              {r.created_by && <span class="meta"> ({r.created_by})</span>}{" "}
              {session.can("delete:racks") && (
                <button type="button" class="link" onClick={() => void release(r)}>
                  {t("racks:reservations.release", { reason: r.reason })}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {session.can("write:racks") && (
        <form class="rack-move" onSubmit={reserve} noValidate aria-label={t("racks:reservations.add")}>
          <Field id="reserve-first" label={t("racks:reservations.first")} error={submit.fields.first_unit}>
            {input(first, setFirst, true)}
          </Field>
          <Field id="reserve-count" label={t("racks:reservations.count")} error={submit.fields.u_count}>
            {input(count, setCount, true)}
          </Field>
          <Field id="reserve-reason" label={t("racks:reservations.reason")} error={submit.fields.reason}>
            {input(reason, setReason, false)}
          </Field>
          <button type="submit" disabled={submit.busy}>
            {t("racks:reservations.add")}
          </button>
        </form>
      )}
      <Notice kind="error">{submit.errorBesides(["first_unit", "u_count", "reason"])}</Notice>
    </section>
  );
}
