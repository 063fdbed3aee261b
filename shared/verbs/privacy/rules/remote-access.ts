// Remote shells and desktops reachable on the network: telnet sends passwords in clear (reference:
// telnet_open, 15 points, critical); RDP and VNC are brute-forced and often unpatched.
import { portRule } from "./port-rule.ts";
import type { DeviceRule } from "./types.ts";

export const REMOTE_ACCESS_RULES: DeviceRule[] = [
  portRule({
    id: "telnet_open",
    title: "Telnet is open",
    points: 15,
    severity: "critical",
    category: "remote_access",
    label: "Telnet",
    ports: [23, 2323],
    says: /^telnet\b/i,
    remediation: {
      id: "disable_telnet",
      text: "Turn telnet off on the device and use SSH instead; if the device cannot, isolate it on its own VLAN.",
    },
  }),
  portRule({
    id: "rdp_open",
    title: "Remote Desktop (RDP) is open",
    points: 8,
    severity: "warning",
    category: "remote_access",
    label: "RDP",
    ports: [3389],
    says: /^ms-wbt-server\b/i,
    remediation: {
      id: "restrict_rdp",
      text: "Allow RDP only from a management network or over a VPN, and require Network Level Authentication.",
    },
  }),
  portRule({
    id: "vnc_open",
    title: "VNC is open",
    points: 8,
    severity: "warning",
    category: "remote_access",
    label: "VNC",
    ports: [5900, 5901, 5902, 5903],
    says: /^RFB \d{3}\.\d{3}/,
    remediation: {
      id: "restrict_vnc",
      text: "Stop the VNC server or tunnel it through SSH or a VPN; VNC passwords are weak and often sent unencrypted.",
    },
  }),
];
