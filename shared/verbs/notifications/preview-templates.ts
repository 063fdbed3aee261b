// POST /notifications/templates/preview: a sink's title and body templates rendered against the sample
// alert (a down monitor with two dependents folded into it, templates.ts SAMPLE_ALERT), checked as a
// save checks them (a 422 naming the template), so the console shows what a page would say before saving.
import type { ValidationIssue } from "../../errors.ts";
import { ApiError } from "../../errors.ts";
import { applyTemplates, SAMPLE_ALERT, templateProblem } from "../../domain/notifications/templates.ts";
import type { TemplatePreview, TemplatePreviewInput } from "../../schemas/notifications.ts";
import { defineRead } from "../verb.ts";
import { ADMIN_NOTIFICATIONS } from "./scopes.ts";

export const previewTemplates = defineRead(
  { scope: ADMIN_NOTIFICATIONS },
  async (_ctx, { body }: { body: TemplatePreviewInput }): Promise<TemplatePreview> => {
    const issues: ValidationIssue[] = [];
    for (const key of ["title_template", "body_template"] as const) {
      const source = body[key];
      const problem = source ? templateProblem(source) : null;
      if (problem) issues.push({ loc: ["body", key], msg: `${key} ${problem}.`, type: "value_error" });
    }
    if (issues.length > 0) throw ApiError.validation(issues);
    const { title, body: text } = applyTemplates(body, SAMPLE_ALERT);
    return { title, body: text };
  },
);
