// [cabling] Ports and cables (docs/ports-and-cables.md): /interfaces, /front-ports, /rear-ports,
// /power-ports, /power-outlets (each with /{id}/trace) and /cables, all on the resource engine.
import type { Hono } from "hono";
import { ENDPOINT_PATHS, type EndpointKind } from "../../../shared/domain/cabling/endpoints.ts";
import {
  Cable,
  CableCreate,
  CableListQuery,
  CablePatch,
  CableTrace,
  FrontPort,
  HardwarePower,
  LldpCableProposals,
  FrontPortCreate,
  FrontPortListQuery,
  FrontPortPatch,
  Interface,
  InterfaceCreate,
  InterfaceListQuery,
  InterfacePatch,
  PowerOutlet,
  PowerOutletCreate,
  PowerOutletListQuery,
  PowerOutletPatch,
  PowerPort,
  PowerPortCreate,
  PowerPortListQuery,
  PowerPortPatch,
  RearPort,
  RearPortCreate,
  RearPortListQuery,
  RearPortPatch,
  RackPower,
} from "../../../shared/schemas/cabling.ts";
import { IdParam } from "../../../shared/schemas/fields.ts";
import { cableVerbs } from "../../../shared/verbs/inventory/cabling/cables.ts";
import {
  frontPortVerbs,
  interfaceVerbs,
  powerOutletVerbs,
  powerPortVerbs,
  rearPortVerbs,
} from "../../../shared/verbs/inventory/cabling/ports.ts";
import { acceptLldpCable, lldpCableProposals } from "../../../shared/verbs/discovery/lldp/cable-proposals.ts";
import { hardwarePower, rackPower } from "../../../shared/verbs/inventory/cabling/power.ts";
import { traceEndpoint } from "../../../shared/verbs/inventory/cabling/trace.ts";
import { verbContext } from "../../context.ts";
import type { AppEnv } from "../../deps.ts";
import { route } from "../../openapi/route.ts";
import { resourceRoutes } from "./resource-routes.ts";

const TAG = "cabling" as const;
const PORT_DELETE = "The cable on the port goes with it (audited); a connection left without cables goes too.";

function traceRoute(app: Hono<AppEnv>, kind: EndpointKind, idParam: string, noun: string) {
  route(
    app,
    {
      method: "get",
      path: `/api/v1/${ENDPOINT_PATHS[kind]}/:${idParam}/trace`,
      tag: TAG,
      scope: traceEndpoint.scope,
      params: IdParam(idParam),
      summary: `Trace the cable path from a ${noun} to the far end`,
      description:
        "Follows the cable on the port; through a patch panel from a front port to its rear port and from a rear port to the front port of the position the path came in by, until an interface, a power port or outlet, or a port with nothing patched (ended: endpoint, no_cable, open; loop or too_long on bad data, at most 64 segments).",
      response: { schema: CableTrace },
    },
    async (c, { params, reply }) =>
      reply(await traceEndpoint({ ctx: verbContext(c), input: { kind, id: (params as Record<string, number>)[idParam]! } })),
  );
}

export function cablingRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    {
      method: "get",
      path: "/api/v1/discovery/lldp-jobs/:job_id/cable-proposals",
      tag: TAG,
      scope: lldpCableProposals.scope,
      params: IdParam("job_id"),
      summary: "An LLDP job's neighbours proposed as cables between interfaces",
      description:
        "The local port names an interface of the reporting node, the remote port one of the neighbour's node (matched by discovery, else by an interface with the chassis MAC). state: ready, cabled, taken or unmatched (reason says why).",
      response: { schema: LldpCableProposals },
    },
    async (c, { params, reply }) => reply(await lldpCableProposals({ ctx: verbContext(c), input: { job_id: params.job_id } })),
  );
  route(
    app,
    {
      method: "post",
      path: "/api/v1/discovery/lldp-jobs/:job_id/cable-proposals/:neighbor_id/accept",
      tag: TAG,
      scope: acceptLldpCable.scope,
      params: IdParam("job_id", "neighbor_id"),
      summary: "Accept a proposal: create the cable between the two interfaces",
      description: "Only a ready proposal is accepted; any other state is a 409 saying why.",
      response: { status: 201, schema: Cable },
      errors: [409],
    },
    async (c, { params, reply }) =>
      reply(await acceptLldpCable({ ctx: verbContext(c), input: { job_id: params.job_id, neighbor_id: params.neighbor_id } })),
  );

  route(
    app,
    {
      method: "get",
      path: "/api/v1/hardware/:hardware_id/power",
      tag: TAG,
      scope: hardwarePower.scope,
      params: IdParam("hardware_id"),
      summary: "A node's power: its draw, its outlets and what they feed, the load on them",
      description:
        "draw sums the node's power ports (allocated and maximum watts); load sums the power ports its outlets feed through cables.",
      response: { schema: HardwarePower },
    },
    async (c, { params, reply }) => reply(await hardwarePower({ ctx: verbContext(c), input: { hardwareId: params.hardware_id } })),
  );
  route(
    app,
    {
      method: "get",
      path: "/api/v1/racks/:rack_id/power",
      tag: TAG,
      scope: rackPower.scope,
      params: IdParam("rack_id"),
      summary: "A rack's power load: what the nodes mounted in it draw",
      response: { schema: RackPower },
    },
    async (c, { params, reply }) => reply(await rackPower({ ctx: verbContext(c), input: { rackId: params.rack_id } })),
  );

  // Trace routes first: they are more specific than GET {id}.
  traceRoute(app, "interface", "interface_id", "interface");
  traceRoute(app, "front_port", "front_port_id", "front port");
  traceRoute(app, "rear_port", "rear_port_id", "rear port");
  traceRoute(app, "power_port", "power_port_id", "power port");
  traceRoute(app, "power_outlet", "power_outlet_id", "power outlet");

  resourceRoutes(app, {
    verbs: interfaceVerbs,
    tag: TAG,
    basePath: "/api/v1/interfaces",
    idParam: "interface_id",
    noun: ["interface", "interfaces"],
    item: Interface,
    create: InterfaceCreate,
    patch: InterfacePatch,
    query: InterfaceListQuery,
    writeDescription:
      "name is unique per node (409 naming the interface). lag_id: a lag-type interface of the same node. vlan_mode access takes untagged_vlan_id only, tagged takes both, tagged-all no list; VLANs are VLAN record ids.",
    deleteDescription: `${PORT_DELETE} Members of a deleted lag leave it.`,
  });
  resourceRoutes(app, {
    verbs: rearPortVerbs,
    tag: TAG,
    basePath: "/api/v1/rear-ports",
    idParam: "rear_port_id",
    noun: ["rear port", "rear ports"],
    item: RearPort,
    create: RearPortCreate,
    patch: RearPortPatch,
    query: RearPortListQuery,
    writeDescription: "A patch panel's back: positions is how many front ports it carries (1 to 1024).",
    deleteDescription: `Refused (409 naming them) while front ports map to it. ${PORT_DELETE}`,
  });
  resourceRoutes(app, {
    verbs: frontPortVerbs,
    tag: TAG,
    basePath: "/api/v1/front-ports",
    idParam: "front_port_id",
    noun: ["front port", "front ports"],
    item: FrontPort,
    create: FrontPortCreate,
    patch: FrontPortPatch,
    query: FrontPortListQuery,
    writeDescription: "Maps to rear_port_id (a rear port of the same node) at rear_position; one front port per position (409).",
    deleteDescription: PORT_DELETE,
  });
  resourceRoutes(app, {
    verbs: powerPortVerbs,
    tag: TAG,
    basePath: "/api/v1/power-ports",
    idParam: "power_port_id",
    noun: ["power port", "power ports"],
    item: PowerPort,
    create: PowerPortCreate,
    patch: PowerPortPatch,
    query: PowerPortListQuery,
    writeDescription: "allocated_w (typical draw) is at most maximum_w.",
    deleteDescription: PORT_DELETE,
  });
  resourceRoutes(app, {
    verbs: powerOutletVerbs,
    tag: TAG,
    basePath: "/api/v1/power-outlets",
    idParam: "power_outlet_id",
    noun: ["power outlet", "power outlets"],
    item: PowerOutlet,
    create: PowerOutletCreate,
    patch: PowerOutletPatch,
    query: PowerOutletListQuery,
    deleteDescription: PORT_DELETE,
  });
  resourceRoutes(app, {
    verbs: cableVerbs,
    tag: TAG,
    basePath: "/api/v1/cables",
    idParam: "cable_id",
    noun: ["cable", "cables"],
    item: Cable,
    create: CableCreate,
    patch: CablePatch,
    query: CableListQuery,
    writeDescription:
      "Ends are {a,b}_kind (interface, front_port, rear_port, power_port, power_outlet) and {a,b}_id. One cable per endpoint: 409 naming the cable that holds it. Data ends join data ends; a power outlet joins a power port; anything else is a 422.",
    deleteDescription: "A connection between the two nodes that loses its last cable goes with it.",
  });
}
