import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The machine a benchmark ran on, for the report header. */
export function describeMachine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

/** The installed versions of the peer engines, so a report says exactly what it measured. */
export function peerVersions() {
  // Read from disk: not every package exports its package.json.
  const versionOf = (name) => JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
  return ['@cedar-policy/cedar-wasm', '@gorules/zen-engine', 'json-rules-engine'].map((name) => `${name} ${versionOf(name)}`);
}
