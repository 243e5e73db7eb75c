/**
 * Length-prefixed text frames over the pipe a sandbox process is forked with next to its IPC
 * channel. A bundle goes to the sandbox process this way rather than inside an IPC message:
 * Node's JSON IPC escapes the 500 KiB of a 1,000-rule bundle into one JSON line, which the
 * child then parses whole. That took 9–17 ms of each load; raw bytes take 3–6 ms
 * (bench/RESULTS.md, cold load).
 *
 * A frame is a 4-byte little-endian byte length, then that many bytes of UTF-8.
 */
import type { Readable, Writable } from 'node:stream';

/** The file descriptor of the frame pipe in a sandbox process (0–2 stdio, 3 IPC). */
export const BULK_FD = 4;

export function writeFrame(pipe: Writable, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32LE(bytes.length);
  pipe.write(header);
  pipe.write(bytes);
}

/** The frames arriving on `pipe`, in order. */
export class FrameReader {
  readonly #chunks: Buffer[] = [];
  #buffered = 0;
  readonly #frames: string[] = [];
  readonly #waiting: ((frame: string) => void)[] = [];

  constructor(pipe: Readable) {
    pipe.on('data', (chunk: Buffer) => {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
      this.#cut();
    });
  }

  /** The next frame, waiting for it if it has not arrived yet. */
  next(): Promise<string> {
    const frame = this.#frames.shift();
    if (frame !== undefined) return Promise.resolve(frame);
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
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
      this.#deliver(frame);
    }
  }

  #join(): void {
    if (this.#chunks.length > 1) this.#chunks.splice(0, this.#chunks.length, Buffer.concat(this.#chunks));
  }

  #deliver(frame: string): void {
    const waiting = this.#waiting.shift();
    if (waiting !== undefined) waiting(frame);
    else this.#frames.push(frame);
  }
}
