/**
 * The seal: the global object's own values, every prototype reachable from them, and the
 * module's tables, frozen. A predicate cannot patch `Array.prototype.includes` or `JSON` to
 * change another rule's result, nor keep state in a table between decisions.
 */
import type { CompiledModule } from './compiled-module.js';

const { freeze, getPrototypeOf } = Object;
const { ownKeys, getOwnPropertyDescriptor } = Reflect;

export function freezeRealm(module: CompiledModule): void {
  const seen = new Set<unknown>();
  const freezeIntrinsic = (value: unknown): void => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    freeze(value);
    for (const key of ownKeys(value)) {
      const descriptor = getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined) continue;
      if ('value' in descriptor) freezeIntrinsic(descriptor.value);
      else {
        freezeIntrinsic(descriptor.get);
        freezeIntrinsic(descriptor.set);
      }
    }
    freezeIntrinsic(getPrototypeOf(value));
  };
  // esbuild exports the module's tables through getters, which the walk above does not call:
  // freeze what they return too, or a predicate could keep state in a table between decisions.
  const tables = module as unknown as Record<PropertyKey, unknown>;
  for (const key of ownKeys(module)) freezeIntrinsic(tables[key]);
  freezeIntrinsic(module);
  freezeIntrinsic(globalThis);
}
