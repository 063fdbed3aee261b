// The parts of the Docker Engine API (v1.43+) the discovery reads, typed as the documentation gives
// them: GET /version, /containers/json?all=1, /containers/{id}/json and /networks. Only the fields used
// are named; the rest of each answer is left alone.

export interface DockerVersion {
  Version: string;
  ApiVersion: string;
  MinAPIVersion?: string;
  Os?: string;
  Arch?: string;
  KernelVersion?: string;
}

export interface DockerPort {
  IP?: string;
  PrivatePort: number;
  PublicPort?: number;
  Type: "tcp" | "udp" | "sctp";
}

export interface DockerEndpoint {
  NetworkID: string;
  Gateway?: string;
  IPAddress?: string;
  IPPrefixLen?: number;
  MacAddress?: string;
}

/** One item of GET /containers/json. */
export interface DockerContainerSummary {
  Id: string;
  Names: string[];
  Image: string;
  ImageID?: string;
  Command?: string;
  Created: number;
  Ports: DockerPort[];
  Labels?: Record<string, string> | null;
  State: string;
  Status: string;
  NetworkSettings?: { Networks?: Record<string, DockerEndpoint> | null } | null;
}

/** GET /containers/{id}/json (the fields the sync reads). */
export interface DockerContainerInspect {
  Id: string;
  Name: string;
  Created: string;
  State: {
    Status: string;
    Running: boolean;
    Restarting?: boolean;
    ExitCode?: number;
    Error?: string;
    StartedAt?: string;
    FinishedAt?: string;
    /** Present when the container has a healthcheck (the docker check reads it). */
    Health?: DockerHealth | null;
  };
  /** Restarts by the engine's restart policy since the container was created. */
  RestartCount?: number;
  Config?: {
    Hostname?: string;
    Image?: string;
    Labels?: Record<string, string> | null;
    Healthcheck?: { Test?: string[] | null } | null;
  } | null;
  HostConfig?: { Memory?: number; NanoCpus?: number; CpuCount?: number } | null;
  NetworkSettings?: { Networks?: Record<string, DockerEndpoint> | null } | null;
}

/** State.Health of an inspect: "starting", "healthy" or "unhealthy", the last probes' results. */
export interface DockerHealth {
  Status: string;
  FailingStreak?: number;
  Log?: { Start?: string; End?: string; ExitCode?: number; Output?: string }[] | null;
}

export interface DockerNetwork {
  Name: string;
  Id: string;
  Created?: string;
  Scope?: string;
  Driver: string;
  Internal?: boolean;
  IPAM?: { Driver?: string; Config?: { Subnet?: string; Gateway?: string; IPRange?: string }[] | null } | null;
  Labels?: Record<string, string> | null;
}

/** Everything one sync reads from an engine, handed to the sync verb (which imports no node:*). */
export interface DockerSnapshot {
  version: DockerVersion;
  containers: { summary: DockerContainerSummary; inspect: DockerContainerInspect | null }[];
  networks: DockerNetwork[];
}
