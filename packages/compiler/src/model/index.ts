export * from './types.js';
export * from './expr.js';
export * from './world.js';
