/**
 * The frames a bundle travels in to a sandbox process: whatever the pipe's chunking, each
 * frame comes out whole, in order, with its text intact.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FrameReader, writeFrame } from '../../packages/runtime/src/sandbox/bulk-frames.js';

function framed(...texts: string[]): Buffer {
  const pipe = new PassThrough();
  for (const text of texts) writeFrame(pipe, text);
  pipe.end();
  return pipe.read() as Buffer;
}

describe('bulk frames', () => {
  it('arrive whole and in order however the bytes are cut', async () => {
    const texts = ['var __adec_module = 1;', '', 'é — 😀 ' + 'x'.repeat(70_000), 'last'];
    const bytes = framed(...texts);
    for (const chunkSize of [1, 3, 4, 5, 4096, bytes.length]) {
      const pipe = new PassThrough();
      const reader = new FrameReader(pipe);
      const received = Promise.all(texts.map(() => reader.next()));
      for (let at = 0; at < bytes.length; at += chunkSize) pipe.write(bytes.subarray(at, at + chunkSize));
      expect(await received).toEqual(texts);
    }
  });

  it('keep frames that arrive before anyone asks', async () => {
    const pipe = new PassThrough();
    const reader = new FrameReader(pipe);
    pipe.write(framed('first', 'second'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await reader.next()).toBe('first');
    expect(await reader.next()).toBe('second');
  });
});
