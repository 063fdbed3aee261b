// The `id:` of a server-sent event (GET /events/stream): `<epoch>-<seq>`. The sequence increases by one
// per event in a process; the epoch (8 hex digits, random per process life) tells a Last-Event-ID from
// an earlier life or from another sidecar apart from one of ours, so it is answered with a reset instead
// of being mistaken for a position in this process's sequence.
const EVENT_ID = /^([0-9a-f]{8})-(0|[1-9][0-9]{0,14})$/;

export interface EventId {
  epoch: string;
  seq: number;
}

export function formatEventId(epoch: string, seq: number): string {
  return `${epoch}-${seq}`;
}

/** The parts of an id this service issues; undefined for anything else. */
export function parseEventId(text: string): EventId | undefined {
  const m = EVENT_ID.exec(text.trim());
  return m ? { epoch: m[1]!, seq: Number(m[2]) } : undefined;
}

export const EVENT_ID_SHAPE = "<8 hex digits>-<sequence>, as sent in `id:`";
