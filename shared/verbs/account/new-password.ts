import { hashPassword, validatePasswordPolicy, verifyPassword } from "../../auth/password.ts";
import { ApiError } from "../../errors.ts";
import type { UserRow } from "../admin-users/user-rows.ts";
import { passwordProblems } from "../auth/password-problems.ts";

/** The hash of a new password after the policy check; the current password cannot be chosen again. */
export async function newPasswordHash(user: UserRow, password: string, field: string): Promise<string> {
  passwordProblems(validatePasswordPolicy(password, user.email), field);
  if ((await verifyPassword(password, user.password_hash)).ok)
    throw ApiError.validation([
      { loc: ["body", field], msg: "The new password must differ from the current one.", type: "same_as_current" },
    ]);
  return hashPassword(password);
}
