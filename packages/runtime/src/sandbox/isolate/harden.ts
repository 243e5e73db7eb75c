/**
 * Runs in a fresh isolate before the untrusted bundle: removes the nondeterministic and
 * host-ish globals, so not even the bundle's top level can read a clock or a random source.
 */

/** Deletes each property; one that cannot be deleted fails the script (and the load). */
function remove(target: object, names: readonly string[]): void {
  for (const name of names) {
    if (!Reflect.deleteProperty(target, name)) throw new TypeError(`Cannot delete property '${name}'`);
  }
}

// Date reads the clock; Intl does too (`new Intl.DateTimeFormat().format()` formats now) and
// reports the host's time zone and locale; WeakRef and FinalizationRegistry observe the garbage
// collector; SharedArrayBuffer and Atomics are shared memory and timers.
remove(globalThis, ['Date', 'Intl', 'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry', 'WeakRef']);
Object.defineProperty(Math, 'random', { value: undefined, writable: false, configurable: false });
// BigInt arithmetic cannot be interrupted or bounded (find-bigint-literal.ts): every way to make a
// BigInt without writing a literal goes, and the loader refuses bundles that write one. That needs
// code generation from strings gone too (`Function("return 1n")`), which no module uses.
remove(globalThis, ['BigInt', 'BigInt64Array', 'BigUint64Array', 'eval', 'Function']);
remove(DataView.prototype, ['getBigInt64', 'getBigUint64', 'setBigInt64', 'setBigUint64']);
for (const kind of [function () {}, async function () {}, function* () {}, async function* () {}]) {
  Object.defineProperty(Object.getPrototypeOf(kind), 'constructor', { value: undefined, writable: false, configurable: false });
}
// RegExp's legacy statics (RegExp.$1, lastMatch, input, …) hold the last match of any regex in
// the isolate: one decision's data, readable by the next. They are accessors, so they go.
remove(RegExp, ['$1', '$2', '$3', '$4', '$5', '$6', '$7', '$8', '$9', 'input', '$_', 'lastMatch', '$&', 'lastParen', '$+', 'leftContext', '$`', 'rightContext', "$'"]);
