/**
 * The host's module budget (resident-modules.ts) against a model of it: under any sequence of
 * loads, uses, unloads and decisions starting and ending, the loaded modules stay within both
 * budgets; a load unloads exactly the least recently used idle modules it needs, in that order,
 * and never a busy one; and it is refused, unloading nothing, exactly when even unloading every
 * idle module would not make room.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ResidentModules, type ModuleBudget, type ResidentModule } from '../src/sandbox/resident-modules.js';

class FakeModule implements ResidentModule {
  busy = false;
  evicted = 0;
  constructor(
    readonly name: number,
    readonly memoryLimitMb: number,
  ) {}
  evict(): void {
    this.evicted++;
  }
  /** The budget never asks for a preload (the pool does, on a recycle). */
  preload(): Promise<void> {
    return Promise.reject(new Error('the budget does not preload'));
  }
}

type Step = { kind: 'load' | 'use' | 'unload' | 'start' | 'finish'; module: number };

const step = fc.record({ kind: fc.constantFrom<Step['kind']>('load', 'load', 'use', 'unload', 'start', 'finish'), module: fc.integer({ min: 0, max: 11 }) });

describe('the module budget', () => {
  test('keeps within both budgets and unloads the least recently used idle modules first (model-based)', () => {
    fc.assert(
      fc.property(fc.record({ modules: fc.integer({ min: 1, max: 6 }), memoryMb: fc.integer({ min: 8, max: 200 }) }), fc.array(fc.integer({ min: 8, max: 64 }), { minLength: 12, maxLength: 12 }), fc.array(step, { maxLength: 80 }), (budget: ModuleBudget, sizes, steps) => {
        const resident = new ResidentModules(budget);
        const modules = sizes.map((size, name) => new FakeModule(name, size));
        /** The model: resident modules, least recently used first. */
        let order: FakeModule[] = [];
        for (const { kind, module: index } of steps) {
          const module = modules[index]!;
          if (kind === 'start') module.busy = true;
          if (kind === 'finish') module.busy = false;
          if (kind === 'use') {
            resident.touch(module);
            if (order.includes(module)) order = [...order.filter((m) => m !== module), module];
          }
          if (kind === 'unload') {
            resident.leave(module);
            order = order.filter((m) => m !== module);
          }
          if (kind === 'load') {
            const evictedBefore = modules.map((m) => m.evicted);
            const refusal = resident.admit(module);
            if (order.includes(module)) {
              expect(refusal).toBeUndefined();
              order = [...order.filter((m) => m !== module), module];
            } else {
              // The model: drop idle modules from the least recently used end until the load fits.
              const fits = (kept: FakeModule[]) => kept.length + 1 <= budget.modules && kept.reduce((sum, m) => sum + m.memoryLimitMb, 0) + module.memoryLimitMb <= budget.memoryMb;
              let kept = [...order];
              const victims: FakeModule[] = [];
              for (const candidate of order) {
                if (fits(kept)) break;
                if (candidate.busy) continue;
                victims.push(candidate);
                kept = kept.filter((m) => m !== candidate);
              }
              const evicted = modules.filter((m, i) => m.evicted > evictedBefore[i]!);
              if (fits(kept)) {
                expect(refusal).toBeUndefined();
                expect(evicted.map((m) => m.name).sort()).toEqual(victims.map((m) => m.name).sort());
                order = [...kept, module];
              } else {
                expect(refusal).toMatch(/^the (sandbox host is at its budget of|module's isolate memory limit of)/);
                expect(evicted).toEqual([]);
              }
            }
          }
          expect(resident.count).toBe(order.length);
          expect(resident.memoryMb).toBe(order.reduce((sum, m) => sum + m.memoryLimitMb, 0));
          expect(resident.count).toBeLessThanOrEqual(budget.modules);
          expect(resident.memoryMb).toBeLessThanOrEqual(budget.memoryMb);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('a refusal names the limit that has no room', () => {
    const resident = new ResidentModules({ modules: 2, memoryMb: 64 });
    const [a, b, c, big] = [new FakeModule(0, 32), new FakeModule(1, 16), new FakeModule(2, 16), new FakeModule(3, 128)];
    a.busy = b.busy = true;
    expect(resident.admit(a)).toBeUndefined();
    expect(resident.admit(b)).toBeUndefined();
    expect(resident.admit(c)).toBe('the sandbox host is at its budget of 2 modules, and too few loaded modules are idle to make room (the others have decisions in flight)');
    expect(resident.admit(big)).toBe("the module's isolate memory limit of 128 MiB is larger than the host's isolate memory budget of 64 MiB");
    resident.leave(b);
    const d = new FakeModule(4, 48);
    expect(resident.admit(d)).toBe('the sandbox host is at its budget of 64 MiB of isolate memory (32 MiB in use, 48 MiB more needed), and too few loaded modules are idle to make room (the others have decisions in flight)');
    a.busy = false;
    expect(resident.admit(d)).toBeUndefined();
    expect(a.evicted).toBe(1);
  });
});
