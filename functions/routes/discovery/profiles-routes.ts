// [discovery] profiles: list, create, PATCH, DELETE, run now (rate category "scan"), pause and resume.
import type { Hono } from "hono";
import {
  DiscoveryProfileOut,
  ProfileCreateBody,
  ProfileList,
  ProfileListQuery,
  ProfileParams,
  ProfilePatchBody,
  ScanJobOut,
} from "../../../shared/schemas/discovery.ts";
import { setProfilePaused } from "../../../shared/verbs/discovery/profiles/pause-profile.ts";
import { listProfiles } from "../../../shared/verbs/discovery/profiles/read-profiles.ts";
import { runProfile } from "../../../shared/verbs/discovery/profiles/run-profile.ts";
import { createProfile, deleteProfile, updateProfile } from "../../../shared/verbs/discovery/profiles/write-profiles.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { allowedTargets } from "./allowed-targets.ts";

const BASE = "/api/v1/discovery/profiles";

const WRITE_NOTE = [
  "Targets as for POST /discovery/scan (`cidr` or `targets`, `exclude`; a docker profile needs none); `scan_types` default icmp, tcp, dns, arp (lldp runs from /discovery/lldp-enrich).",
  "`schedule_cron` is a 5-field crontab read in UTC (null: run only on demand); `next_run_at` follows from it.",
  "`snmp_community` is sealed by the vault, never returned (`snmp_community_set`); on PATCH null clears it, leaving it out keeps it.",
].join(" ");

export function profilesRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: BASE,
      tag: "discovery",
      scope: listProfiles.scope,
      query: ProfileListQuery,
      response: { schema: ProfileList },
      summary: "List discovery profiles",
      description:
        "The list envelope; `sort` name (default), created_at, next_run_at, last_run or id; filter enabled; `q` over name and cidr.",
    },
    async (c, { query, reply }) => reply(await listProfiles({ ctx: verbContext(c), input: query })),
  );

  route(
    app,
    {
      method: "post",
      path: BASE,
      tag: "discovery",
      scope: createProfile.scope,
      body: ProfileCreateBody,
      response: { status: 201, schema: DiscoveryProfileOut },
      summary: "Create a discovery profile",
      description: WRITE_NOTE,
      errors: [503],
    },
    async (c, { body, reply }) => reply(await createProfile({ ctx: verbContext(c), input: { body, allowed: allowedTargets(c) } }), 201),
  );

  route(
    app,
    {
      method: "patch",
      path: `${BASE}/:profile_id`,
      tag: "discovery",
      scope: updateProfile.scope,
      params: ProfileParams,
      body: ProfilePatchBody,
      response: { schema: DiscoveryProfileOut },
      summary: "Change a discovery profile",
      description: `Only the fields given change; the checks run on the profile as it would be stored. ${WRITE_NOTE}`,
      errors: [503],
    },
    async (c, { params, body, reply }) =>
      reply(await updateProfile({ ctx: verbContext(c), input: { id: params.profile_id, body, allowed: allowedTargets(c) } })),
  );

  route(
    app,
    {
      method: "delete",
      path: `${BASE}/:profile_id`,
      tag: "discovery",
      scope: deleteProfile.scope,
      params: ProfileParams,
      response: { status: 204, description: "Deleted; its jobs stay, without a profile." },
      summary: "Delete a discovery profile",
    },
    async (c, { params }) => {
      await deleteProfile({ ctx: verbContext(c), input: { id: params.profile_id } });
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: "post",
      path: `${BASE}/:profile_id/run`,
      tag: "discovery",
      scope: runProfile.scope,
      params: ProfileParams,
      response: { status: 201, schema: ScanJobOut },
      errors: [400, 429],
      summary: "Run a profile now (a queued job)",
      description:
        'Makes a `manual` job from the profile, checked again like a scan request. 400 "Profile is disabled"; an agent that may not run it is a 422 with `reason` and `reason_detail` beside the message; 429 while 3 server scans are open.',
    },
    async (c, { params, reply }) =>
      reply(await runProfile({ ctx: verbContext(c), input: { id: params.profile_id, allowed: allowedTargets(c) } })),
  );

  for (const [action, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    route(
      app,
      {
        method: "post",
        path: `${BASE}/:profile_id/${action}`,
        tag: "discovery",
        scope: setProfilePaused.scope,
        params: ProfileParams,
        response: { schema: DiscoveryProfileOut },
        summary: paused ? "Pause a profile's schedule" : "Resume a profile's schedule",
        description: paused
          ? "The schedule starts no run while paused (run now still works); pausing again keeps the original paused_at."
          : "Clears paused_at and computes the next scheduled run.",
      },
      async (c, { params, reply }) => reply(await setProfilePaused({ ctx: verbContext(c), input: { id: params.profile_id, paused } })),
    );
  }
}
