// The part of net-snmp (pure-JS SNMP, no bundled types) the poller uses.
declare module "net-snmp" {
  import type { EventEmitter } from "node:events";

  export interface Varbind {
    oid: string;
    type: number;
    value: unknown;
  }
  export interface SessionOptions {
    port?: number;
    version?: number;
    timeout?: number;
    retries?: number;
    transport?: "udp4" | "udp6";
  }
  export interface Session extends EventEmitter {
    get(oids: string[], callback: (error: Error | null, varbinds: Varbind[]) => void): void;
    subtree(oid: string, maxRepetitions: number, feed: (varbinds: Varbind[]) => boolean | void, done: (error: Error | null) => void): void;
    close(): void;
  }
  const snmp: {
    Version1: number;
    Version2c: number;
    /** The varbind type codes by name (OctetString: 4, Counter64: 70, NoSuchObject: 128, ...) and back. */
    ObjectType: Record<string, number> & Record<number, string>;
    createSession(target: string, community: string, options?: SessionOptions): Session;
    isVarbindError(varbind: Varbind): boolean;
  };
  export default snmp;
}
