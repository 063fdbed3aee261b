// The outbound policy a status page subscriber's webhook is held to (docs/adr/0458-status-page-subscribers.md):
// the installation's, and never a private address, whatever it allows. A sink's URL is an operator's choice;
// a subscriber's comes from anyone on the internet, who must not make this server reach into its network.
import type { OutboundPolicy } from "../net/outbound-policy.ts";

export const subscriberWebhookPolicy = (policy: OutboundPolicy): OutboundPolicy => ({ ...policy, allow_private: false });
