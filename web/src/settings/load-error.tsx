// A section's load error: a refusal (403) reads as what it is, since a viewer opening an administrator's
// section is expected, not a failure.
import { ApiProblem, messageOf } from "../api/problem.ts";
import { Notice } from "../components/field.tsx";

export function LoadError({ error, what }: { error: unknown; what: string }) {
  if (error === undefined) return null;
  if (error instanceof ApiProblem && error.status === 403)
    return <Notice kind="info">{`Your role cannot see ${what}; an administrator can.`}</Notice>;
  return <Notice kind="error">{messageOf(error)}</Notice>;
}
