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
import { FirewallSection } from "./firewall-settings.tsx";
import { GeneralSettingsSection } from "./general-settings.tsx";
import { NotificationsSection } from "./notifications.tsx";
import { OAuthSection } from "./oauth-providers.tsx";
import { SmtpSection } from "./smtp-settings.tsx";
import { SystemSection } from "./system.tsx";
import { UsersSection } from "./users.tsx";

const SECTIONS = [
  { key: "notifications", label: "Notifications", Screen: NotificationsSection },
  { key: "tokens", label: "API tokens", Screen: ApiTokensSection },
  { key: "users", label: "Users and roles", Screen: UsersSection },
  { key: "backups", label: "Backups", Screen: BackupsSection },
  { key: "system", label: "Vault and rate limits", Screen: SystemSection },
  { key: "smtp", label: "Email (SMTP)", Screen: SmtpSection, adminOnly: true },
  { key: "backup-schedule", label: "Backup schedule", Screen: BackupSettingsForm },
  { key: "oauth", label: "Sign-in providers", Screen: OAuthSection },
  { key: "general", label: "General", Screen: GeneralSettingsSection, adminOnly: true },
  { key: "branding", label: "Branding", Screen: BrandingSection },
  { key: "acme-dns", label: "ACME DNS", Screen: AcmeDnsSection, adminOnly: true },
  { key: "firewall", label: "Firewall (OPNsense)", Screen: FirewallSection, adminOnly: true },
] as const;

export function SettingsPage({ section }: { section: string | undefined }) {
  const current = SECTIONS.find((s) => s.key === section) ?? SECTIONS[0];
  const { Screen } = current;
  const isAdmin = useSession().can("admin:*");
  const hidden = "adminOnly" in current && !isAdmin;
  return (
    <section aria-labelledby="settings-title">
      <header class="page-head">
        <h1 id="settings-title">Settings</h1>
      </header>
      <nav class="tabs" aria-label="Settings sections">
        {SECTIONS.map((s) => (
          <Link key={s.key} href={`/settings/${s.key}`} aria-current={s === current ? "page" : undefined}>
            {s.label}
          </Link>
        ))}
      </nav>
      {hidden ? <Notice kind="info">Only an administrator sees these settings.</Notice> : <Screen />}
    </section>
  );
}
