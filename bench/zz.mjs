import { readFileSync } from 'node:fs';
import { findBigIntLiteral } from '../packages/runtime/dist/sandbox/find-bigint-literal.js';
const n = process.argv[2];
const bundle = readFileSync(`/tmp/zzw${n}/build/bundle.js`, 'utf8');
let t = performance.now(); findBigIntLiteral(bundle); const cold = performance.now() - t;
t = performance.now(); for (let i = 0; i < 10; i++) findBigIntLiteral(bundle); console.log(n, 'cold', cold.toFixed(1), 'warm', ((performance.now() - t) / 10).toFixed(1));
