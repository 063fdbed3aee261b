// The one Vite build-time feature the console uses (i18n/i18n.ts bundles the catalogues with it).
interface ImportMeta {
  glob<T>(pattern: string, options: { eager: true; import: "default" }): Record<string, T>;
}
