// A section's load error: a refusal (403) reads as what it is, since a viewer opening an administrator's
// section is expected, not a failure.
import { ApiProblem, messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";
import { useT } from "../i18n/use-t.ts";

export function LoadError({ error, what }: { error: unknown; what: string }) {
  const t = useT();
  if (error === undefined) return null;
  if (error instanceof ApiProblem && error.status === 403) return <Notice kind="info">{t("settings:loadError.refused", { what })}</Notice>;
  return <Notice kind="error">{messageOf(error)}</Notice>;
}
