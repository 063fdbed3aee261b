// Who may do what with monitors (docs/adr/0099-monitors-scopes.md): every role reads (read:monitors,
// within read:*). Creating, changing, pausing and checking need write:monitors and deleting needs
// delete:monitors; spec 5.2 gives editors no share of either, so in practice an administrator or a token
// granted them (the reference's "any writer" would need a change to the spec's role table).
export const READ_MONITORS = "read:monitors";
export const WRITE_MONITORS = "write:monitors";
export const DELETE_MONITORS = "delete:monitors";
