// Who may do what with the privacy analysis (spec/catalogue.tsv, group privacy and threat analysis): any signed-in reader reads;
// ignores are an administrator's; a refresh needs write (administrators, or a token with write:privacy).
export const READ_PRIVACY = "read:privacy";
export const REFRESH_PRIVACY = "write:privacy";
export const ADMIN_PRIVACY = "admin:privacy";
