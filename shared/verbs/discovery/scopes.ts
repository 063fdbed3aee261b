// Who may do what with discovery: every role reads (read:discovery, within read:*). Scans, profiles,
// merges and the fleet-wide pause need write:discovery and deletes delete:discovery; spec 5.2 gives editors
// neither, so in practice an administrator or a token granted them (the reference's "admin" gate).
export const READ_DISCOVERY = "read:discovery";
export const WRITE_DISCOVERY = "write:discovery";
export const DELETE_DISCOVERY = "delete:discovery";
