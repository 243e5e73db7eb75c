/**
 * The memory of a sandbox process, as it reports it (sandbox-process.ts answers a `memory`
 * request with it): what a host's metrics show and what its recycle policy reads
 * (sandbox-process-pool.ts). The process's own numbers are Node's (`process.memoryUsage()`);
 * the isolates' are V8's heap statistics of each module's isolate, summed.
 */
import type { IsolateSandbox } from './isolate-sandbox.js';

export interface SandboxProcessMemory {
  /** Resident set of the whole process: its own heap, the isolates', and native memory. */
  readonly rssBytes: number;
  /** The process's own JavaScript heap (the frames, the action specs), and what V8 holds outside it for it. */
  readonly heapUsedBytes: number;
  readonly externalBytes: number;
  readonly arrayBuffersBytes: number;
  /** Modules whose isolates live in the process, their used heap and external allocations, summed. */
  readonly isolates: number;
  readonly isolateHeapBytes: number;
  readonly isolateExternalBytes: number;
}

export function measureMemory(sandboxes: Iterable<IsolateSandbox>): SandboxProcessMemory {
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  let isolates = 0;
  let isolateHeapBytes = 0;
  let isolateExternalBytes = 0;
  for (const sandbox of sandboxes) {
    const heap = sandbox.heapStatistics();
    if (heap === undefined) continue;
    isolates++;
    isolateHeapBytes += heap.used_heap_size;
    isolateExternalBytes += heap.externally_allocated_size;
  }
  return { rssBytes: rss, heapUsedBytes: heapUsed, externalBytes: external, arrayBuffersBytes: arrayBuffers, isolates, isolateHeapBytes, isolateExternalBytes };
}
