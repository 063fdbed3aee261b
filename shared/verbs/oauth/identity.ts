/** Who the provider says signed in: the identity key (issuer, subject) and the verified e-mail. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  /** Verified by the provider (email_verified true, or GitHub's verified-email list); lower-case. */
  email: string;
  name: string | null;
}
