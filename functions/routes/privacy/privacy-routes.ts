// Catalogue group "privacy and threat analysis" (spec/catalogue.tsv, group privacy and threat analysis; docs/privacy.md): the score
// and its history, threat alerts, a device's threat profile, the attack surface, ignores, and (ours) a
// refresh that takes a snapshot now.
import type { Hono } from "hono";
import { IdParam } from "../../../shared/schemas/fields.ts";
import {
  AttackSurface,
  IgnoreAdded,
  IgnoreBody,
  IgnoreQuery,
  Ignores,
  PrivacyHistory,
  PrivacyHistoryQuery,
  PrivacyScore,
  RefreshAnswer,
  ThreatAlerts,
  ThreatProfile,
} from "../../../shared/schemas/privacy.ts";
import { addIgnore, listIgnores, removeIgnore } from "../../../shared/verbs/privacy/ignores.ts";
import {
  readAttackSurface,
  readPrivacyHistory,
  readPrivacyScore,
  readThreatAlerts,
  readThreatProfile,
} from "../../../shared/verbs/privacy/reads.ts";
import { refreshPrivacyScore } from "../../../shared/verbs/privacy/take-snapshot.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";

const tag = "privacy and threat analysis" as const;
const EMPTY = "With the analysis off (setting privacy_analysis_enabled) or before the first snapshot, the empty shape with 200.";

export function privacyRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/network/privacy-score",
      tag,
      scope: readPrivacyScore.scope,
      response: { schema: PrivacyScore },
      summary: "The network's privacy score (0-100, grade A-F), its deductions, checks and recent scores",
      description: `From the newest snapshot, re-scored with the ignores in force (ignored findings are listed under \`ignored\`). ${EMPTY}`,
    },
    async (c, { reply }) => reply(await readPrivacyScore({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/network/privacy-score/history",
      tag,
      scope: readPrivacyHistory.scope,
      query: PrivacyHistoryQuery,
      response: { schema: PrivacyHistory },
      summary: "The score per day (the last snapshot of each UTC day), oldest first",
      description: `Each day's stored score and counts, as taken then. ${EMPTY}`,
    },
    async (c, { query, reply }) => reply(await readPrivacyHistory({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/network/privacy-score/refresh",
      tag,
      scope: refreshPrivacyScore.scope,
      response: { schema: RefreshAnswer },
      summary: "Take a privacy snapshot now (ours, not in the catalogue)",
      description:
        "Runs the rules over what discovery knows now and stores the snapshot; new findings of severity warning or above go to the notification routes. Answers enabled false and stores nothing while the analysis is off.",
    },
    async (c, { reply }) => reply(await refreshPrivacyScore({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/network/threat-alerts",
      tag,
      scope: readThreatAlerts.scope,
      response: { schema: ThreatAlerts },
      summary: "The warning and critical checks of the newest snapshot (ignored ones left out)",
      description: `status is critical, warning or safe; unknown before the first snapshot or with the analysis off. ${EMPTY}`,
    },
    async (c, { reply }) => reply(await readThreatAlerts({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/devices/:hardware_id/threat-profile",
      tag,
      scope: readThreatProfile.scope,
      params: IdParam("hardware_id"),
      response: { schema: ThreatProfile },
      summary: "One hardware node's findings and its own score",
      description: `404 when the hardware does not exist. score and grade are null before the first snapshot or with the analysis off.`,
    },
    async (c, { params, reply }) => reply(await readThreatProfile({ ctx: verbContext(c), input: { hardware_id: params.hardware_id } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/network/attack-surface",
      tag,
      scope: readAttackSurface.scope,
      response: { schema: AttackSurface },
      summary: "Every hardware node with open ports, as the newest port scan that saw it found them",
      description: "Live from discovery's results (not from a snapshot). Empty with the analysis off.",
    },
    async (c, { reply }) => reply(await readAttackSurface({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/privacy-findings/ignores",
      tag,
      scope: listIgnores.scope,
      response: { schema: Ignores },
      summary: "The ignores in force (hardware_id null: every device)",
    },
    async (c, { reply }) => reply(await listIgnores({ ctx: verbContext(c) })),
  );

  route(
    app,
    {
      method: "post",
      path: "/api/v1/privacy-findings/ignore",
      tag,
      scope: addIgnore.scope,
      body: IgnoreBody,
      response: { status: 201, schema: IgnoreAdded },
      summary: "Ignore a rule for every device (hardware_id null) or for one device",
      description: "Idempotent: 201 {ok: true} also when the ignore exists. 422 for an unknown rule_id, 404 for an unknown hardware_id.",
    },
    async (c, { body, reply }) =>
      reply(
        await addIgnore({ ctx: verbContext(c), input: { rule_id: body.rule_id, hardware_id: body.hardware_id ?? null, from: "body" } }),
        201,
      ),
  );

  route(
    app,
    {
      method: "delete",
      path: "/api/v1/privacy-findings/ignore",
      tag,
      scope: removeIgnore.scope,
      query: IgnoreQuery,
      response: { status: 204, description: "Removed, or there was no such ignore" },
      summary: "Stop ignoring a rule (for every device without hardware_id, or for one device)",
      description: "204 also when no such ignore exists; 422 for an unknown rule_id.",
    },
    async (c, { query }) => {
      await removeIgnore({ ctx: verbContext(c), input: { rule_id: query.rule_id, hardware_id: query.hardware_id ?? null, from: "query" } });
      return c.body(null, 204);
    },
  );
}
