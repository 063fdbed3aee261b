import type { PasswordProblem } from "../../auth/password.ts";
import { ApiError } from "../../errors.ts";

/** Turns password-policy problems into a 422 naming the field (no-op when there are none). */
export function passwordProblems(problems: PasswordProblem[], field = "password"): void {
  if (problems.length === 0) return;
  throw ApiError.validation(problems.map((p) => ({ loc: ["body", field], msg: p.message, type: p.code })));
}
