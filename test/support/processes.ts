/**
 * The host's child processes as an operator sees them, from /proc (Linux): which are alive, and
 * how much memory they hold.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Live child processes of this process. */
export function childPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // Fields after the parenthesised command: state, ppid, …; a zombie is already gone.
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(ppid) === process.pid && state !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The resident set of the live child processes together, in MiB. */
export function childrenRssMiB(): number {
  let kib = 0;
  for (const pid of childPids()) {
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kib += Number(match?.[1] ?? 0);
    } catch {
      // Exited since it was listed.
    }
  }
  return kib / 1024;
}
