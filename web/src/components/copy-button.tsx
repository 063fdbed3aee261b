// A button that copies a text (a secret shown once, a URL) to the clipboard and says whether it did:
// "Copied", or, where the browser refuses (no clipboard outside a secure context), to select it by hand.
import { useState } from "preact/hooks";
import { useT } from "../i18n/use-t.ts";

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const t = useT();
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
        {outcome === "copied" ? t("common:copy.copied") : (label ?? t("common:copy.button"))}
      </button>
      <span role="status" class={outcome === "refused" ? "meta" : "visually-hidden"}>
        {outcome === "copied" ? t("common:copy.done") : outcome === "refused" ? t("common:copy.refused") : ""}
      </span>
    </>
  );
}
