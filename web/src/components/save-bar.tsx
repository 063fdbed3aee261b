// The end of an edit form: the save's error (a 412 offers to load the version someone else saved, as
// If-Match refused ours) and the Save / Cancel buttons.
import { Notice } from "./field.tsx";
import { useT } from "../i18n/use-t.ts";

export function SaveBar({
  error,
  conflict,
  onLoadTheirs,
  busy,
  label,
}: {
  error: string | undefined;
  /** The save was refused with 412: the record changed since it was loaded. */
  conflict: boolean;
  onLoadTheirs: () => void;
  busy: boolean;
  /** The submit button's words ("Create monitor", "Save changes"). */
  label: string;
}) {
  const t = useT();
  return (
    <>
      {conflict ? (
        <div class="notice notice-error" role="alert">
          <p>{error}</p>
          <button type="button" onClick={onLoadTheirs}>
            {t("common:save.loadTheirs")}
          </button>
        </div>
      ) : (
        <Notice kind="error">{error}</Notice>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t("common:save.saving") : label}
        </button>
        <button type="button" onClick={() => history.back()}>
          {t("common:cancel")}
        </button>
      </div>
    </>
  );
}
