// Who is signed in, from GET /auth/me, and what they may do: the screens hide or disable every write
// the user's scopes do not allow (a viewer sees everything read-only). The server checks again.
import { createContext, type ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import { scopeAllows } from "../../../shared/auth/scopes.ts";
import type { paths } from "../api/client.ts";

export type User = paths["/api/v1/auth/me"]["get"]["responses"][200]["content"]["application/json"];

export interface Session {
  user: User;
  can(scope: string): boolean;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function SessionProvider({ value, children }: { value: Session; children: ComponentChildren }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error("useSession outside a signed-in screen");
  return s;
}

export function sessionOf(user: User, signOut: () => Promise<void>, refresh: () => Promise<void>): Session {
  return { user, can: (scope) => scopeAllows(user.scopes, scope), signOut, refresh };
}
