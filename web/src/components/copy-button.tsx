// A button that copies a text (a secret shown once, a URL) to the clipboard and says whether it did:
// "Copied", or, where the browser refuses (no clipboard outside a secure context), to select it by hand.
import { useState } from "preact/hooks";

export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [outcome, setOutcome] = useState<"copied" | "refused" | undefined>();
  const copy = () => {
    const done = navigator.clipboard?.writeText(text);
    if (!done) return setOutcome("refused");
    done.then(
      () => setOutcome("copied"),
      () => setOutcome("refused"),
    );
  };
  return (
    <>
      <button type="button" onClick={copy}>
        {outcome === "copied" ? "Copied" : label}
      </button>
      <span role="status" class={outcome === "refused" ? "meta" : "visually-hidden"}>
        {outcome === "copied"
          ? "Copied to the clipboard."
          : outcome === "refused"
            ? "The browser refused: select the text and copy it."
            : ""}
      </span>
    </>
  );
}
