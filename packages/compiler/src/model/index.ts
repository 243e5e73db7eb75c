export * from './types.js';
export * from './expr.js';
export * from './world.js';
export * from './builtins.js';
