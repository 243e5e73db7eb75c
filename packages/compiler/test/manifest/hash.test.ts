import { describe, expect, it } from 'vitest';
import { sha256Hex, sourceHash } from '../../src/manifest/index.js';

describe('sha256Hex', () => {
  it('hashes strings as UTF-8 and bytes as given', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(sha256Hex('abc'));
    expect(sha256Hex('é')).toBe(sha256Hex(new Uint8Array([0xc3, 0xa9])));
  });
});

describe('sourceHash', () => {
  const files = [
    { path: 'context.adec', text: 'context {}\n' },
    { path: 'rules.adec', text: 'action a {}\n' },
  ];

  it('is stable', () => {
    expect(sourceHash(files)).toBe(sourceHash(files.map((f) => ({ ...f }))));
    expect(sourceHash(files)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is sensitive to order, paths and content', () => {
    const base = sourceHash(files);
    expect(sourceHash([...files].reverse())).not.toBe(base);
    expect(sourceHash([{ ...files[0]!, path: 'ctx.adec' }, files[1]!])).not.toBe(base);
    expect(sourceHash([files[0]!, { ...files[1]!, text: 'action b {}\n' }])).not.toBe(base);
  });

  it('frames files unambiguously', () => {
    // Moving bytes across the path/text or file/file boundary must change the hash.
    expect(sourceHash([{ path: 'ab', text: 'c' }])).not.toBe(sourceHash([{ path: 'a', text: 'bc' }]));
    expect(sourceHash([{ path: 'a', text: 'xy' }, { path: 'b', text: '' }])).not.toBe(sourceHash([{ path: 'a', text: 'x' }, { path: 'b', text: 'y' }]));
    expect(sourceHash([{ path: 'a', text: '' }])).not.toBe(sourceHash([]));
  });
});
