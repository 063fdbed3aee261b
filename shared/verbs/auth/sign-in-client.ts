/**
 * What every verb that ends in a sign-in (login, MFA verify, register, demo, forced password change,
 * invite, first run, masquerade) takes besides its own fields: the key that signs the session token and
 * the client's user agent, recorded on the session.
 */
export interface SignInClient {
  signingKey: Uint8Array;
  userAgent?: string | null | undefined;
}
