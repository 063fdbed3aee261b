// Who may do what with integrations: every role reads (read:integrations, within read:*). Creating,
// changing, testing, syncing and the hypervisor's guest actions need write:integrations, deletes
// delete:integrations; spec 5.2 gives editors neither, so in practice an administrator or a token granted
// them (the reference's "admin" gate for the hypervisor, its write auth for the monitoring integrations).
export const READ_INTEGRATIONS = "read:integrations";
export const WRITE_INTEGRATIONS = "write:integrations";
export const DELETE_INTEGRATIONS = "delete:integrations";
