// Settings: one screen per section under /settings/<section>, with a row of tabs between them. Each
// section loads only its own data; one the user's role cannot read says so instead of failing. The
// sections drawn from GET /settings's administrator keys (URLs, addresses, secrets' flags) are not
// loaded for anyone else: that read answers them only rate_limit_profile.
import { useSession } from "../auth/session.tsx";
import { Notice } from "../components/field.tsx";
import { Link } from "../router.tsx";
import { AcmeDnsSection } from "./acme-dns-settings.tsx";
import { ApiTokensSection } from "./api-tokens.tsx";
import { BackupSettingsForm } from "./backup-settings.tsx";
import { BackupsSection } from "./backups.tsx";
import { BrandingSection } from "./branding.tsx";
import { CustomFieldsSection } from "./custom-fields.tsx";
import { FirewallSection } from "./firewall-settings.tsx";
import { GeneralSettingsSection } from "./general-settings.tsx";
import { NotificationsSection } from "./notifications.tsx";
import { OAuthSection } from "./oauth-providers.tsx";
import { SmtpSection } from "./smtp-settings.tsx";
import { SystemSection } from "./system.tsx";
import { UsersSection } from "./users.tsx";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const SECTIONS = [
  { key: "notifications", label: i18nKey("settings:section.notifications"), Screen: NotificationsSection },
  { key: "tokens", label: i18nKey("settings:section.tokens"), Screen: ApiTokensSection },
  { key: "users", label: i18nKey("settings:section.users"), Screen: UsersSection },
  { key: "backups", label: i18nKey("settings:section.backups"), Screen: BackupsSection },
  { key: "system", label: i18nKey("settings:section.system"), Screen: SystemSection },
  { key: "smtp", label: i18nKey("settings:section.smtp"), Screen: SmtpSection, adminOnly: true },
  { key: "backup-schedule", label: i18nKey("settings:section.backupSchedule"), Screen: BackupSettingsForm },
  { key: "oauth", label: i18nKey("settings:section.oauth"), Screen: OAuthSection },
  { key: "general", label: i18nKey("settings:section.general"), Screen: GeneralSettingsSection, adminOnly: true },
  { key: "branding", label: i18nKey("settings:section.branding"), Screen: BrandingSection },
  { key: "acme-dns", label: i18nKey("settings:section.acmeDns"), Screen: AcmeDnsSection, adminOnly: true },
  { key: "firewall", label: i18nKey("settings:section.firewall"), Screen: FirewallSection, adminOnly: true },
  { key: "custom-fields", label: i18nKey("custom-fields:section"), Screen: CustomFieldsSection, adminOnly: true },
] as const;

export function SettingsPage({ section }: { section: string | undefined }) {
  const t = useT();
  const current = SECTIONS.find((s) => s.key === section) ?? SECTIONS[0];
  const { Screen } = current;
  const isAdmin = useSession().can("admin:*");
  const hidden = "adminOnly" in current && !isAdmin;
  return (
    <section aria-labelledby="settings-title">
      <header class="page-head">
        <h1 id="settings-title">{t("settings:page.title")}</h1>
      </header>
      <nav class="tabs" aria-label={t("settings:page.sections")}>
        {SECTIONS.map((s) => (
          <Link key={s.key} href={`/settings/${s.key}`} aria-current={s === current ? "page" : undefined}>
            {t(s.label)}
          </Link>
        ))}
      </nav>
      {hidden ? <Notice kind="info">{t("settings:page.adminOnly")}</Notice> : <Screen />}
    </section>
  );
}
