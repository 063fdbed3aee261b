// The part of net-snmp (pure-JS SNMP, no bundled types) the poller, the discovery and the snmp check use.
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
  /** An SNMPv3 (USM) user: `level`, `authProtocol` and `privProtocol` are the codes of the tables below. */
  export interface User {
    name: string;
    level: number;
    authProtocol?: number;
    authKey?: string;
    privProtocol?: number;
    privKey?: string;
  }
  export interface Session extends EventEmitter {
    get(oids: string[], callback: (error: Error | null, varbinds: Varbind[]) => void): void;
    subtree(oid: string, maxRepetitions: number, feed: (varbinds: Varbind[]) => boolean | void, done: (error: Error | null) => void): void;
    close(): void;
  }
  const snmp: {
    Version1: number;
    Version2c: number;
    Version3: number;
    /** noAuthNoPriv, authNoPriv, authPriv by name (and back). */
    SecurityLevel: Record<string, number>;
    /** md5, sha, sha224, sha256, sha384, sha512 by name (and back). */
    AuthProtocols: Record<string, number>;
    /** des, aes, aes256b, aes256r by name (and back). */
    PrivProtocols: Record<string, number>;
    /** Codes of ResponseInvalidError: EAuthFailure (5) is a USM report (wrong digest, unknown user, ...). */
    ResponseInvalidCode: Record<string, number>;
    /** The varbind type codes by name (OctetString: 4, Counter64: 70, NoSuchObject: 128, ...) and back. */
    ObjectType: Record<string, number> & Record<number, string>;
    createSession(target: string, community: string, options?: SessionOptions): Session;
    createV3Session(target: string, user: User, options?: SessionOptions): Session;
    isVarbindError(varbind: Varbind): boolean;
  };
  export default snmp;
}
