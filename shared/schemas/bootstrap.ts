// [bootstrap] request and response shapes of first-run set-up: the status, the first administrator
// (with the setup token, or through a provider), the onboarding checklist and the public address.
import * as v from "valibot";
import { Email, Password } from "./auth.ts";

const DisplayName = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120)));

export const BootstrapStatus = v.object({ bootstrapped: v.boolean(), needs_bootstrap: v.boolean() });

export const InitializeBody = v.object({
  email: Email,
  password: Password,
  display_name: DisplayName,
  setup_token: v.pipe(v.string(), v.minLength(1, "The setup token is required.")),
});
export const InitializeOAuthBody = v.object({
  oauth_token: v.pipe(v.string(), v.minLength(1, "The oauth_token is required."), v.maxLength(4096)),
  setup_token: v.pipe(v.string(), v.minLength(1, "The setup token is required."), v.maxLength(512)),
  display_name: DisplayName,
});

const Step = v.object({ key: v.string(), title: v.string(), done: v.boolean() });
export const Onboarding = v.object({
  steps: v.array(Step),
  completed: v.number(),
  total: v.number(),
  dismissed: v.boolean(),
  public_url: v.nullable(v.string()),
});
export const OnboardingPatch = v.strictObject({ dismissed: v.boolean() });

export const DomainBody = v.strictObject({
  public_url: v.pipe(
    v.string(),
    v.trim(),
    v.url("Must be a URL."),
    v.regex(/^https?:\/\/[^/?#]+\/?$/i, "Must be http(s)://host[:port] with no path."),
  ),
});
export const Domain = v.object({ public_url: v.string() });
