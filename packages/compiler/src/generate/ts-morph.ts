/**
 * ts-morph's values, loaded with `require`. Importing a CommonJS package from an ES module
 * makes Node scan the package's source for its export names, and ts-morph carries TypeScript
 * 6 with it: about 13 MB and 150 ms of every build. Types still come from `import type`.
 */
import { createRequire } from 'node:module';

type TsMorph = typeof import('ts-morph');

export const { IndentationText, NewLineKind, Project, QuoteKind, StructureKind } = createRequire(import.meta.url)('ts-morph') as TsMorph;
export type Project = import('ts-morph').Project;
