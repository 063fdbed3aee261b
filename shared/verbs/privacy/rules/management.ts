// Management and data interfaces that should never face a shared network: an unauthenticated Docker
// API or kubelet is root on the host, IPMI controls the hardware below the OS, Redis and most databases
// ship without a password, MQTT on 1883 is unencrypted. And on a gateway, its admin page over plain
// HTTP and SSH (info before the gateway escalation, so warning on the gateway they apply to).
import type { OpenPortRow } from "../../../db/schema/discovery.ts";
import { portRule } from "./port-rule.ts";
import { type DeviceRule, portHits, quoted, where } from "./types.ts";

const plainHttp = (p: OpenPortRow) =>
  !p.tls && (p.service === "http" || p.service === "http-alt" || ([80, 8080, 8000, 8081].includes(p.port) && p.service !== "https"));

export const MANAGEMENT_RULES: DeviceRule[] = [
  portRule({
    id: "docker_api_exposed",
    title: "Docker API without TLS is open",
    points: 20,
    severity: "critical",
    category: "management",
    label: "Docker Engine API",
    ports: [2375],
    remediation: {
      id: "close_docker_api",
      text: "Stop listening on tcp://0.0.0.0:2375; use the local socket, SSH (docker -H ssh://) or TLS with client certificates on 2376.",
    },
  }),
  portRule({
    id: "kubernetes_api_exposed",
    title: "Kubernetes API or kubelet is reachable",
    points: 10,
    severity: "warning",
    category: "management",
    label: "Kubernetes API/kubelet",
    ports: [6443, 10250, 10255],
    remediation: {
      id: "restrict_kubernetes_api",
      text: "Reach the API server only from administration networks, turn anonymous auth and the kubelet read-only port (10255) off.",
    },
  }),
  portRule({
    id: "ipmi_exposed",
    title: "IPMI / BMC is reachable",
    points: 10,
    severity: "warning",
    category: "management",
    label: "IPMI",
    ports: [623, 664],
    says: /^(asf-rmcp|ipmi)\b/i,
    remediation: {
      id: "isolate_bmc",
      text: "Put BMCs (iDRAC, iLO, IPMI) on a dedicated management VLAN, change their default passwords and disable IPMI over LAN where unused.",
    },
  }),
  portRule({
    id: "mqtt_plaintext",
    title: "MQTT without TLS is open",
    points: 6,
    severity: "warning",
    category: "management",
    label: "MQTT (plain)",
    ports: [1883],
    says: /^mqtt\b/i,
    remediation: {
      id: "secure_mqtt",
      text: "Require authentication on the broker and use MQTT over TLS (8883); keep plain 1883 on localhost.",
    },
  }),
  portRule({
    id: "redis_exposed",
    title: "Redis is reachable",
    points: 10,
    severity: "warning",
    category: "databases",
    label: "Redis",
    ports: [6379],
    says: /^redis\b|^-(NOAUTH|ERR|DENIED)\b/i,
    remediation: {
      id: "restrict_redis",
      text: "Bind Redis to localhost or a private interface, set a password (requirepass / ACLs) and keep protected mode on.",
    },
  }),
  portRule({
    id: "database_exposed",
    title: "A database port is reachable",
    points: 8,
    severity: "warning",
    category: "databases",
    label: "Database",
    ports: [1433, 3306, 5432, 5984, 9200, 11211, 27017],
    says: /^(mysql|postgresql|ms-sql-s|mongodb|couchdb|elasticsearch|memcache)/i,
    remediation: {
      id: "restrict_database",
      text: "Let databases listen only where their clients are (localhost or a private segment) and require authentication.",
    },
  }),
  {
    id: "gateway_admin_http",
    title: "Gateway admin page over plain HTTP",
    points: 5,
    severity: "info",
    category: "management",
    gatewayOnly: true,
    remediation: {
      id: "gateway_https_admin",
      text: "Serve the gateway's administration over HTTPS only, and only on the LAN (or management) interface.",
    },
    match: (d) => portHits(d, plainHttp, (p) => `HTTP administration of gateway ${d.name} at ${where(d, p)}${quoted(p)}`),
  },
  {
    id: "gateway_ssh_open",
    title: "SSH open on a gateway",
    points: 4,
    severity: "info",
    category: "management",
    gatewayOnly: true,
    remediation: { id: "gateway_ssh_keys", text: "Allow SSH to the gateway only from the management network, with keys (no passwords)." },
    match: (d) =>
      portHits(
        d,
        (p) => p.port === 22 || p.service === "ssh",
        (p) => `SSH on gateway ${d.name} at ${where(d, p)}${quoted(p)}`,
      ),
  },
];
