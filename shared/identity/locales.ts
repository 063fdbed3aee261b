// The console's languages a user can choose (PATCH /users/me `locale`); the web catalogues under
// web/src/locales/ hold exactly these (docs/adr/0479-console-i18n.md).
export const LOCALES = ["en", "de", "fr", "es"] as const;
export type Locale = (typeof LOCALES)[number];
