// Who may manage status pages (docs/adr/0454-status-pages.md): every role reads them (read:*), changing
// them is an administrator's (write:* and delete:*), or a token or custom role given write:status_pages.
// The public page and its JSON twin need no scope at all.
export const READ_STATUS_PAGES = "read:status_pages";
export const WRITE_STATUS_PAGES = "write:status_pages";
