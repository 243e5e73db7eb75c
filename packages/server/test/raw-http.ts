/**
 * HTTP over a raw TCP socket, for what `fetch` will not send: malformed request lines, huge or
 * missing headers, bodies that trickle in, connections held open. Each connection records
 * everything the server sent and when it closed.
 */
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  readonly socket: Socket;
  readonly openedAt: number;
  /** Every byte received so far, as text. */
  received(): string;
  /** Resolves with the milliseconds from open to close when the server (or anyone) closes it. */
  readonly closed: Promise<number>;
  /** Resolves once the connection is established. */
  readonly connected: Promise<void>;
}

export function openRaw(url: string, localAddress?: string): RawConnection {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), ...(localAddress !== undefined && { localAddress }) });
  const openedAt = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - openedAt)));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, openedAt, received: () => Buffer.concat(chunks).toString('utf8'), closed, connected };
}

/** Writes `text` one byte every `intervalMs` until the socket closes or the text is sent. */
export function trickle(connection: RawConnection, text: string, intervalMs: number): void {
  let next = 0;
  const timer = setInterval(() => {
    if (connection.socket.destroyed || next >= text.length) {
      clearInterval(timer);
      return;
    }
    connection.socket.write(text[next++]!);
  }, intervalMs);
  connection.socket.once('close', () => clearInterval(timer));
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The first HTTP response in `text` (with a Content-Length), or undefined if none is complete. */
export function parseAnswer(text: string): RawAnswer | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? 0);
  const body = Buffer.from(text.slice(end + 4)).subarray(0, length).toString('utf8');
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

/** Sends `request` whole and resolves with the server's answer once the connection closes or an answer is complete. */
export async function exchangeRaw(url: string, request: string | Buffer, timeoutMs = 5_000): Promise<RawAnswer | undefined> {
  const connection = openRaw(url);
  connection.socket.write(request);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answer = parseAnswer(connection.received());
    if (answer !== undefined && Buffer.byteLength(answer.body) >= Number(answer.headers['content-length'] ?? 0)) {
      connection.socket.destroy();
      return answer;
    }
    if (connection.socket.destroyed || connection.socket.readableEnded) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  connection.socket.destroy();
  return parseAnswer(connection.received());
}
