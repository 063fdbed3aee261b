// Node refuses some requests itself, before the app sees them (headers over its 16 KB limit, a client
// too slow to send its request, bytes that are not HTTP). Its own answer has an empty body; this one
// is the spec's envelope (7.1) instead, written straight to the socket, which is then closed.
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, errorEnvelope } from "../shared/errors.ts";

const REFUSALS: Record<string, () => ApiError> = {
  HPE_HEADER_OVERFLOW: () => new ApiError("REQUEST_HEADER_FIELDS_TOO_LARGE", "The request headers are larger than the server accepts."),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: () =>
    new ApiError("PAYLOAD_TOO_LARGE", "The request's chunk extensions are larger than the server accepts."),
  ERR_HTTP_REQUEST_TIMEOUT: () => new ApiError("REQUEST_TIMEOUT", "The request was not received in full within the server's timeout."),
};
const malformed = () => new ApiError("BAD_REQUEST", "The request is not a well-formed HTTP/1.1 message.");

/** An ApiError's envelope as a whole raw HTTP/1.1 response that closes the connection. */
export function rawErrorResponse(error: ApiError): string {
  const body = JSON.stringify(errorEnvelope(error));
  const headers = {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "close",
    ...error.headers,
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ""}\r\n${head}\r\n${body}`;
}

/**
 * The server's 'clientError' hook. Answers only a socket that can still take a whole response: a reset
 * peer, an unwritable socket or one whose response has already started is just destroyed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // _httpMessage is the response Node is writing on this socket; its own default handler checks the same.
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === "ECONNRESET" || !socket.writable || started) {
    socket.destroy();
    return;
  }
  const error = (REFUSALS[err.code ?? ""] ?? malformed)();
  // Destroyed once written: the server socket is half-open, and a peer that never closes would keep it.
  socket.end(rawErrorResponse(error), () => socket.destroy());
}
