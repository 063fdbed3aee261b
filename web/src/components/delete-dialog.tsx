// A delete confirmed in a modal dialog naming what goes: the caller says what is deleted with it and what
// to do once it is gone (the request and where to go next).
import type { ComponentChildren } from "preact";
import { useSubmit } from "../auth/use-submit.ts";
import { Dialog } from "./dialog.tsx";
import { Notice } from "./field.tsx";
import { useT } from "../i18n/use-t.ts";

export function DeleteDialog({
  name,
  button,
  remove,
  onClose,
  children,
}: {
  name: string;
  /** The confirming button's words ("Delete monitor"). */
  button: string;
  /** Deletes it and moves on; an error is shown in the dialog. */
  remove: () => Promise<void>;
  onClose: () => void;
  /** What deleting it does. */
  children: ComponentChildren;
}) {
  const t = useT();
  const submit = useSubmit();
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void submit.run(remove);
  };
  return (
    <Dialog title={t("common:delete.title", { name })} onClose={onClose}>
      <form onSubmit={onSubmit}>
        <p>{children}</p>
        <Notice kind="error">{submit.error}</Notice>
        <div class="actions">
          <button type="submit" class="danger" disabled={submit.busy}>
            {button}
          </button>
          <button type="button" onClick={onClose}>
            {t("common:cancel")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
