/**
 * The names every JavaScript object answers to: `Object.prototype`'s own properties, listed
 * explicitly so that neither the language nor the verifier changes with the JavaScript engine.
 * A world may not name an attribute or field so (the checker, ADEC2015: the inherited value
 * would answer when the input leaves it out), and generated code never reads one (the runtime's
 * verifier of generated code refuses a bundle that does).
 */
export const OBJECT_PROTOTYPE_NAMES: readonly string[] = [
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
];
