// UPnP lets any program on the network open ports in the router and describes the device to anyone who
// asks (reference: UPnP, 10 points, warning). Seen as the SSDP port (1900) answering over TCP, or as any
// port whose banner or page names UPnP (miniupnpd and most device description servers say so in their
// Server header, often on 5000 or 49152).
import { portRule } from "./port-rule.ts";
import type { DeviceRule } from "./types.ts";

export const UPNP_RULES: DeviceRule[] = [
  portRule({
    id: "upnp_exposed",
    title: "UPnP is exposed",
    points: 10,
    severity: "warning",
    category: "upnp",
    label: "UPnP",
    ports: [1900],
    says: /\bupnp\b|miniupnpd|^ssdp\b|upnp\/\d/i,
    remediation: { id: "disable_upnp", text: "Turn UPnP (and NAT-PMP) off on the router and open the ports that are needed by hand." },
  }),
];
