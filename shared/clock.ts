// Injected time and randomness, so tests can drive windows and expiries without sleeping.
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface Random {
  bytes(n: number): Uint8Array;
  uuid(): string;
}
export const cryptoRandom: Random = {
  bytes: (n) => crypto.getRandomValues(new Uint8Array(n)),
  uuid: () => crypto.randomUUID(),
};
