/**
 * Length-prefixed text frames: the transport between the host and a sandbox process, over the
 * duplex pipe the process is forked with (fd 4), in both directions.
 *
 * Why not Node's IPC channel: it serialises each message as one JSON line and parses it whole
 * on the other side, objects included; a 1,000-rule bundle inside a message cost 9–17 ms of each
 * load, where raw bytes take 3–6 ms (bench/RESULTS.md, cold load), and per decision the IPC
 * channel's object messages cost 50–100 µs more than text frames (issue 14's measurements).
 * Requests and replies are JSON text carrying a request id, so many can be in flight.
 *
 * A frame is a 4-byte little-endian byte length, then that many bytes of UTF-8: a JSON header,
 * then, when the message carries one, a newline and a payload. The payload is text that is
 * already JSON or is not JSON at all (a bundle's source, a context, the isolate's answer), so it
 * travels as it is: embedding it in the header as a JSON string would escape every quote on one
 * side and scan it again on the other. `JSON.stringify` never writes a raw newline, so the first
 * one ends the header.
 */
import type { Readable, Writable } from 'node:stream';

/** The file descriptor of the frame pipe in a sandbox process (0–2 stdio, 3 IPC). */
export const FRAME_FD = 4;

export function writeFrame(pipe: Writable, text: string): void {
  const length = Buffer.byteLength(text, 'utf8');
  const frame = Buffer.allocUnsafe(4 + length);
  frame.writeUInt32LE(length, 0);
  frame.write(text, 4, 'utf8');
  pipe.write(frame);
}

/** Writes `header` as JSON, then `payload` verbatim when there is one. */
export function writeMessage(pipe: Writable, header: object, payload?: string): void {
  const json = JSON.stringify(header);
  writeFrame(pipe, payload === undefined ? json : `${json}\n${payload}`);
}

export interface Message {
  /** The header, parsed. */
  readonly header: unknown;
  readonly payload: string | undefined;
}

/** A frame's header and payload; throws when the header is not JSON. */
export function readMessage(frame: string): Message {
  const end = frame.indexOf('\n');
  return end === -1 ? { header: JSON.parse(frame), payload: undefined } : { header: JSON.parse(frame.slice(0, end)), payload: frame.slice(end + 1) };
}

/** Calls `onFrame` with each frame arriving on `pipe`, in order. */
export class FrameReader {
  readonly #chunks: Buffer[] = [];
  #buffered = 0;

  constructor(
    pipe: Readable,
    private readonly onFrame: (frame: string) => void,
  ) {
    pipe.on('data', (chunk: Buffer) => {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
      this.#cut();
    });
  }

  /** Cuts every complete frame off the buffered bytes; chunks are joined once a frame is complete. */
  #cut(): void {
    while (this.#buffered >= 4) {
      if (this.#chunks[0]!.length < 4) this.#join();
      const length = this.#chunks[0]!.readUInt32LE(0);
      if (this.#buffered < 4 + length) return;
      this.#join();
      const bytes = this.#chunks[0]!;
      const frame = bytes.toString('utf8', 4, 4 + length);
      const rest = bytes.subarray(4 + length);
      this.#chunks.length = 0;
      if (rest.length > 0) this.#chunks.push(rest);
      this.#buffered = rest.length;
      this.onFrame(frame);
    }
  }

  #join(): void {
    if (this.#chunks.length > 1) this.#chunks.splice(0, this.#chunks.length, Buffer.concat(this.#chunks));
  }
}
