// A badge-public monitor's SVG badges, or one a published status page lists (docs/badges.md): each one's URL, shown as the badge itself with
// Markdown to embed it and a copy button. The URLs are this server's, as the browser reached it.
import { CERT_CHECK_TYPES } from "../../../shared/domain/badges/badge-values.ts";
import { i18nKey } from "../i18n/i18n.ts";
import { useT } from "../i18n/use-t.ts";

const BADGES = [
  { kind: "status", title: i18nKey("monitoring:badges.status") },
  { kind: "uptime", title: i18nKey("monitoring:badges.uptime") },
  { kind: "response-time", title: i18nKey("monitoring:badges.responseTime") },
  { kind: "cert-expiry", title: i18nKey("monitoring:badges.certExpiry") },
] as const;

export function badgeUrls(origin: string, monitorId: number, checkType: string): { kind: string; title: string; url: string }[] {
  return BADGES.filter((b) => b.kind !== "cert-expiry" || CERT_CHECK_TYPES.includes(checkType)).map((b) => ({
    ...b,
    url: `${origin}/api/v1/badges/monitors/${monitorId}/${b.kind}.svg`,
  }));
}

/** Each badge's `title` is a catalogue key: `t(b.title)`. `listed`: public only because a published status page lists the monitor (not ticked on its form). */
export function BadgeUrlsPanel({ monitorId, checkType, listed = false }: { monitorId: number; checkType: string; listed?: boolean }) {
  const t = useT();
  return (
    <section class="badge-urls" aria-labelledby="badge-urls-title">
      <h2 id="badge-urls-title">{t("monitoring:badges.title")}</h2>
      <p class="meta">
        {t("monitoring:badges.anyone")} {t("monitoring:badges.add")} {/* i18n-ignore: a query parameter */}
        <code>?label=</code> {t("monitoring:badges.label")}
      </p>
      {listed && (
        <p class="meta" data-testid="badges-listed">
          {t("monitoring:badges.listed")}
        </p>
      )}
      <ul>
        {badgeUrls(location.origin, monitorId, checkType).map((b) => {
          const markdown = `![${b.kind}](${b.url})`;
          return (
            <li key={b.kind} data-testid={`badge-${b.kind}`}>
              <p>
                {t("monitoring:badges.item", { title: t(b.title) })}{" "}
                <img src={b.url} alt={t("monitoring:badges.alt", { kind: b.kind })} height={20} />
              </p>
              <code>{markdown}</code>{" "}
              <button type="button" onClick={() => void navigator.clipboard?.writeText(markdown)}>
                {t("monitoring:badges.copyMarkdown")}
              </button>{" "}
              <button type="button" onClick={() => void navigator.clipboard?.writeText(b.url)}>
                {t("monitoring:badges.copyUrl")}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
