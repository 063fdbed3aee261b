// Who may do what with agents (docs/adr/0070-agents-agent-scopes.md): every role reads; administrators
// decide, delete and change grants; PATCH needs write:agents, which spec 5.2 gives editors no share of.
export const READ_AGENTS = "read:agents";
export const WRITE_AGENTS = "write:agents";
export const ADMIN_AGENTS = "admin:agents";
export const DELETE_AGENTS = "delete:agents";
