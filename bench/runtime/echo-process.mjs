/**
 * The transport floor's far end (host-bench.mjs): a process forked as a sandbox process is, that
 * answers each message on its frame pipe at once with a fixed answer of a decision's size, with
 * no isolate behind it. What is left of a round trip is the transport itself.
 */
import { Socket } from 'node:net';
import { FRAME_FD, FrameReader, readMessage, writeMessage } from '../../packages/runtime/dist/sandbox/frames.js';

const answer = process.argv[2];
const pipe = new Socket({ fd: FRAME_FD, readable: true, writable: true });
new FrameReader(pipe, (frame) => writeMessage(pipe, { id: readMessage(frame).header.id, answers: true }, answer));
pipe.on('end', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
process.send('ready');
