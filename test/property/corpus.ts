/**
 * Seed material for mutation: the example worlds (all their files, so a mutation of one file
 * is checked together with the others) and the invalid-world fixtures.
 */
import { readdirSync, statSync } from 'node:fs';
import type { WorldSources } from '@adec/compiler';
import { byteOrder, loadWorldFromDir, repoPath } from '../support/repo.js';

export function corpusWorlds(kind: 'examples' | 'fixtures'): WorldSources[] {
  const dir = kind === 'examples' ? 'examples' : 'test/diagnostics/fixtures';
  return readdirSync(repoPath(dir))
    .filter((entry) => entry.endsWith('.adec') || statSync(repoPath(dir, entry)).isDirectory())
    .sort(byteOrder)
    .map((entry) => loadWorldFromDir(`${dir}/${entry}`))
    .filter((world) => world.files.length > 0);
}
