// What the delivery worker sends for one claimed delivery: the sink (or, for a status page subscriber,
// the sink its address makes), the attempt and the message. Made by the claim (delivery-work.ts) and by
// the subscribers' job builder (../status-pages/subscriber-notices.ts), which the claim calls: the type
// lives apart so neither imports the other for it.
import type { NotifierType } from "../../domain/notifications/notifiers/index.ts";
import type { AlertMessage } from "../../domain/notifications/notifiers/notifier.ts";

export interface DeliveryJob {
  delivery_id: number;
  attempt: number;
  sink: { id: number; provider_type: NotifierType; config: Record<string, unknown>; secrets: Record<string, string> };
  message: AlertMessage;
  /** A status page subscriber's webhook: sent under subscriberWebhookPolicy (docs/adr/0458). */
  publicSubscriber?: true;
}
