// Noise_IK_25519_ChaChaPoly_SHA256 for the agent link (docs/architecture.md, how an agent frame flows): the agent initiates
// with the server's static key, empty prologue, one handshake message each way, then transport messages.
//
//   const agent = initiator({ s: agentSecret, rs: serverPublic });
//   const server = responder({ s: serverSecret });
//   const hello = server.readMessage(agent.writeMessage(payload)); // server.remoteStaticKey: the agent
//   agent.readMessage(server.writeMessage(reply));
//   const { send, receive, handshakeHash } = agent.split();         // likewise server.split()
//
// Errors are NoiseErrors with a reason; any of them ends the handshake or the receiving direction.
export { CipherState } from "./cipher-state.ts";
export {
  IKInitiator,
  IKResponder,
  initiator,
  PROTOCOL_NAME,
  responder,
  type InitiatorOptions,
  type ResponderOptions,
} from "./handshake-ik.ts";
export { NoiseError, type NoiseErrorReason } from "./noise-error.ts";
export { generateKeyPair, type KeyPair, keyPairOf, MAX_MESSAGE, MAX_NONCE } from "./primitives.ts";
export { SymmetricState } from "./symmetric-state.ts";
export { nobleX25519, type X25519 } from "./x25519.ts";
export { ReceiveCipher, SendCipher, type Transport } from "./transport.ts";
