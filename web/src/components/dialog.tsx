// A modal dialog on the browser's own <dialog> (showModal): focus moves into it and stays there, Escape
// closes it, and what is behind it is inert, with no focus-trap code of our own.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

export interface DialogProps {
  /** The heading, which also names the dialog for assistive technology. */
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}

let dialogs = 0;

export function Dialog({ title, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useRef(`dialog-title-${++dialogs}`).current;
  const gone = useRef(false);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      gone.current = true;
      dialog?.close();
    };
  }, []);
  // The close() above (a dialog closed by its owner: Cancel, a finished form) fires "close" later, as a
  // task of its own: by then the owner may have opened its next dialog (Enter on the button the focus went
  // back to, on a busy machine), which that late onClose would shut at once. Only a mounted dialog tells.
  const closed = () => {
    if (!gone.current) onClose();
  };
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onClose={closed}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
