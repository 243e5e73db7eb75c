/**
 * The frames requests, replies and bundles travel in between the host and a sandbox process:
 * whatever the pipe's chunking, each frame comes out whole, in order, with its text intact.
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameReader, writeFrame } from '../src/sandbox/frames.js';

function framed(...texts: string[]): Buffer {
  const pipe = new PassThrough();
  for (const text of texts) writeFrame(pipe, text);
  pipe.end();
  return (pipe.read() as Buffer | null) ?? Buffer.alloc(0);
}

/** The frames read from `bytes` written to a pipe in chunks of `chunkSize`. */
function received(bytes: Buffer, chunkSize: number): string[] {
  const pipe = new PassThrough();
  const frames: string[] = [];
  new FrameReader(pipe, (frame) => frames.push(frame));
  for (let at = 0; at < bytes.length; at += chunkSize) pipe.write(bytes.subarray(at, at + chunkSize));
  return frames;
}

describe('frames', () => {
  it('arrive whole and in order however the bytes are cut', async () => {
    const texts = ['var __adec_module = 1;', '', 'é — 😀 ' + 'x'.repeat(70_000), 'last'];
    const bytes = framed(...texts);
    for (const chunkSize of [1, 3, 4, 5, 4096, bytes.length]) {
      const frames = received(bytes, chunkSize);
      await new Promise((resolve) => setImmediate(resolve));
      expect(frames).toEqual(texts);
    }
  });

  it('carry any text, cut anywhere (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { maxLength: 20 }), fc.integer({ min: 1, max: 64 }), async (texts, chunkSize) => {
        const frames = received(framed(...texts), chunkSize);
        await new Promise((resolve) => setImmediate(resolve));
        expect(frames).toEqual(texts);
      }),
      { numRuns: 200 },
    );
  });
});
