// The functions app: stateless HTTP handlers over web-standard APIs, the same on Node and workerd.
// Middleware order (docs/architecture.md, how a request flows): request id -> security headers (on the way out) -> error envelope -> admission guard (writes; reads while the
// database is down) -> body limit -> authentication -> CSRF -> rate limit -> route (access and scope are
// enforced per route).
import { Hono } from "hono";
import type { EventFeed } from "../shared/streams/event-feed.ts";
import type { AppEnv, Deps } from "./deps.ts";
import { notFound, onError } from "./errors.ts";
import { authenticate } from "./middleware/authenticate.ts";
import { clientAddress } from "./middleware/client-address.ts";
import { limitBody } from "./middleware/body-limit.ts";
import { csrf } from "./middleware/csrf.ts";
import { rateLimit, startRateLimit } from "./middleware/rate-limit.ts";
import { requestContext } from "./middleware/request-context.ts";
import { admissionGuard } from "./middleware/admission-guard.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { documentRoutes } from "./openapi/document.ts";
import { accountRoutes } from "./routes/account/index.ts";
import { agentsRoutes } from "./routes/agents/index.ts";
import { monitorsRoutes } from "./routes/monitors/index.ts";
import { discoveryRoutes } from "./routes/discovery/index.ts";
import { integrationsRoutes } from "./routes/integrations/index.ts";
import { notificationsRoutes } from "./routes/notifications/index.ts";
import { auditAdminRoutes } from "./routes/admin/audit-routes.ts";
import { adminInvitesRoutes } from "./routes/admin/invites-routes.ts";
import { jobsRoutes } from "./routes/admin/jobs-routes.ts";
import { dbRoutes } from "./routes/admin/db-routes.ts";
import { IMPORT_PATH, transferRoutes } from "./routes/admin/transfer-routes.ts";
import { CSV_IMPORT_MAX_BYTES, IMPORT_CSV_SUFFIX } from "./routes/inventory/import-routes.ts";
import { APPLY_PATH, configRoutes } from "./routes/config/config-routes.ts";
import { cveRoutes } from "./routes/cve/index.ts";
import { adminUsersRoutes } from "./routes/admin/users-routes.ts";
import { mfaRoutes } from "./routes/auth/mfa-routes.ts";
import { inviteAcceptRoutes } from "./routes/auth/invite-accept-routes.ts";
import { signInRoutes } from "./routes/auth/sign-in-routes.ts";
import { tokenRoutes } from "./routes/auth/token-routes.ts";
import { cliLoginRoutes } from "./routes/auth/cli-login-routes.ts";
import { bootstrapRoutes } from "./routes/bootstrap/index.ts";
import { assetRoutes } from "./routes/content/assets.ts";
import { brandingRoutes } from "./routes/branding/index.ts";
import { securityStatusRoutes } from "./routes/security-status.ts";
import { capabilityRoutes } from "./routes/content/capabilities.ts";
import { catalogRoutes } from "./routes/content/catalog.ts";
import { privacyRoutes } from "./routes/privacy/privacy-routes.ts";
import { docsRoutes } from "./routes/content/docs.ts";
import { eventsRoutes } from "./routes/events.ts";
import { kbRoutes } from "./routes/content/kb.ts";
import { mapsRoutes } from "./routes/content/maps.ts";
import { systemRoutes } from "./routes/content/system.ts";
import { timezoneRoutes } from "./routes/content/timezones.ts";
import { topologyRoutes } from "./routes/content/topologies.ts";
import { goneRoutes } from "./routes/gone.ts";
import { healthRoutes } from "./routes/health/index.ts";
import { intelligenceRoutes } from "./routes/intelligence/index.ts";
import { clusterRoutes } from "./routes/inventory/clusters.ts";
import { graphRoutes } from "./routes/inventory/graph.ts";
import { serviceDiscoveryRoutes } from "./routes/service-discovery.ts";
import { computeUnitRoutes } from "./routes/inventory/compute-units.ts";
import { customFieldRoutes } from "./routes/settings/custom-fields-routes.ts";
import { hardwareRoutes } from "./routes/inventory/hardware.ts";
import { externalNodeRoutes } from "./routes/inventory/external-nodes.ts";
import { labelRoutes } from "./routes/inventory/labels.ts";
import { miscRoutes } from "./routes/inventory/misc.ts";
import { rackRoutes } from "./routes/inventory/racks.ts";
import { cablingRoutes } from "./routes/inventory/cabling.ts";
import { siteRoutes } from "./routes/inventory/sites.ts";
import { storageRoutes } from "./routes/inventory/storage.ts";
import { ipamRoutes } from "./routes/inventory/ipam.ts";
import { networkRoutes } from "./routes/inventory/networks.ts";
import { historyRoutes } from "./routes/inventory/history.ts";
import { journalRoutes } from "./routes/inventory/journal.ts";
import { prefixRoutes } from "./routes/inventory/prefixes.ts";
import { vrfRoutes } from "./routes/inventory/vrfs.ts";
import { namesRoutes } from "./routes/inventory/names.ts";
import { searchRoutes } from "./routes/inventory/search.ts";
import { serviceRoutes } from "./routes/inventory/services.ts";
import { vlanRoutes } from "./routes/inventory/vlans.ts";
import { logRoutes } from "./routes/logs/index.ts";
import { oauthRoutes } from "./routes/auth/oauth-routes.ts";
import { oauthIdentityRoutes } from "./routes/account/oauth-identity-routes.ts";
import { initializeOAuthRoutes } from "./routes/bootstrap/initialize-oauth-routes.ts";
import { rolesRoutes } from "./routes/settings/roles-routes.ts";
import { acmeDnsSettingsRoutes } from "./routes/settings/acme-dns-routes.ts";
import { firewallSettingsRoutes } from "./routes/settings/firewall-routes.ts";
import { settingsRoutes } from "./routes/settings/settings-routes.ts";
import { smtpSettingsRoutes } from "./routes/settings/smtp-routes.ts";
import { installScriptRoutes } from "./routes/install-script.ts";
import { acmeChallengeRoutes } from "./routes/acme-challenge.ts";
import { certificateRoutes } from "./routes/certificates/certificate-routes.ts";
import { staticUploadRoutes } from "./routes/static-uploads.ts";
import { webAppRoutes, withWebAppPage } from "./routes/web-app.ts";
import { telemetryRoutes } from "./routes/telemetry/telemetry-routes.ts";
import { statusPageRoutes } from "./routes/status-pages/page-routes.ts";
import { statusPagePreviewRoutes } from "./routes/status-pages/preview-routes.ts";
import { statusPageSubscriberRoutes } from "./routes/status-pages/subscriber-routes.ts";
import { itemBadgeRoutes } from "./routes/status-pages/item-badge-routes.ts";
import { statusPageSummaryRoutes } from "./routes/status-pages/summary-routes.ts";
import { publicStatusPageRoutes } from "./routes/status-pages/public-page-routes.ts";
import { statusPageIncidentRoutes } from "./routes/status-pages/incident-routes.ts";
import { statusPageHistoryRoutes } from "./routes/status-pages/history-routes.ts";
import { userRoutes } from "./routes/users/user-routes.ts";
import { vaultRoutes } from "./routes/vault/index.ts";

/** What only the sidecar's process holds; absent elsewhere, where its routes answer 503 saying so. */
export interface SidecarSources {
  events?: EventFeed;
}

export function createApp(deps: Deps, sidecar: SidecarSources = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.notFound(withWebAppPage(notFound));
  app.use("*", requestContext(deps));
  app.use("*", securityHeaders(deps.config));
  app.use("*", clientAddress(deps));
  app.use("/api/*", admissionGuard);
  app.use(
    "/api/*",
    limitBody(
      deps.config.MAX_BODY_BYTES,
      deps.config.MAX_UPLOAD_BYTES,
      { [IMPORT_PATH]: deps.config.MAX_IMPORT_BYTES, [APPLY_PATH]: deps.config.MAX_IMPORT_BYTES },
      { [IMPORT_CSV_SUFFIX]: CSV_IMPORT_MAX_BYTES },
    ),
  );
  app.use("/api/*", startRateLimit());
  app.use("/api/*", authenticate);
  app.use("/api/*", csrf);
  app.use("/api/*", rateLimit());

  healthRoutes(app);
  goneRoutes(app);
  bootstrapRoutes(app);
  signInRoutes(app);
  mfaRoutes(app);
  oauthRoutes(app);
  oauthIdentityRoutes(app);
  initializeOAuthRoutes(app);
  accountRoutes(app);
  tokenRoutes(app);
  cliLoginRoutes(app);
  rolesRoutes(app);
  logRoutes(app);
  auditAdminRoutes(app);
  adminUsersRoutes(app);
  adminInvitesRoutes(app);
  jobsRoutes(app);
  dbRoutes(app);
  transferRoutes(app);
  configRoutes(app);
  certificateRoutes(app);
  inviteAcceptRoutes(app);
  userRoutes(app);
  settingsRoutes(app);
  smtpSettingsRoutes(app);
  acmeDnsSettingsRoutes(app);
  firewallSettingsRoutes(app);

  customFieldRoutes(app);
  hardwareRoutes(app);
  serviceRoutes(app);
  computeUnitRoutes(app);
  storageRoutes(app);
  miscRoutes(app);
  externalNodeRoutes(app);
  networkRoutes(app);
  ipamRoutes(app);
  vrfRoutes(app);
  prefixRoutes(app);
  labelRoutes(app);
  siteRoutes(app);
  rackRoutes(app);
  cablingRoutes(app);
  clusterRoutes(app);
  vlanRoutes(app);
  journalRoutes(app);
  historyRoutes(app);
  graphRoutes(app);
  serviceDiscoveryRoutes(app);
  searchRoutes(app);
  namesRoutes(app);
  intelligenceRoutes(app);
  telemetryRoutes(app);
  agentsRoutes(app);
  monitorsRoutes(app);
  discoveryRoutes(app);
  integrationsRoutes(app);
  notificationsRoutes(app);
  statusPageRoutes(app);
  statusPageSummaryRoutes(app);
  statusPagePreviewRoutes(app);
  statusPageSubscriberRoutes(app);
  itemBadgeRoutes(app);
  statusPageIncidentRoutes(app);
  statusPageHistoryRoutes(app);
  cveRoutes(app);
  vaultRoutes(app);
  eventsRoutes(app, sidecar.events);

  docsRoutes(app);
  mapsRoutes(app);
  topologyRoutes(app);
  kbRoutes(app);
  catalogRoutes(app);
  privacyRoutes(app);
  assetRoutes(app);
  brandingRoutes(app);
  securityStatusRoutes(app);
  timezoneRoutes(app);
  capabilityRoutes(app);
  systemRoutes(app);
  staticUploadRoutes(app);
  installScriptRoutes(app);
  acmeChallengeRoutes(app);
  publicStatusPageRoutes(app, { root: deps.webApp !== undefined });
  webAppRoutes(app);

  documentRoutes(app, deps.config.version);
  return app;
}
