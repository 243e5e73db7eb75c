/**
 * CPU time of a process and every process under it, read from /proc (Linux only; elsewhere
 * `null`). The HTTP bench reads it before and after a load run to show where a 2-core machine's
 * time went: the server process, its sandbox processes, PostgreSQL, the load generator.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond;

/**
 * User + system CPU seconds of `pid` and its descendants (only its own with `children: false`),
 * or null if /proc cannot tell.
 */
export function treeCpuSeconds(pid, { children = true } = {}) {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return ticks(pid, children) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** CPU seconds the whole machine has spent busy (every core, every process), or null. */
export function machineBusySeconds() {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    // user nice system idle iowait irq softirq steal …: busy is everything but idle and iowait.
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + steal) / ticksPerSecond;
  } catch {
    return null;
  }
}

function ticks(pid, children) {
  // The command name is in parentheses and may hold spaces: fields are counted after it.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  let total = Number(fields[11]) + Number(fields[12]);
  for (const child of children ? childrenOf(pid) : []) {
    try {
      total += ticks(child, true);
    } catch {
      // A child that exited in between has nothing left to count.
    }
  }
  return total;
}

function childrenOf(pid) {
  const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return tasks.trim().split(/\s+/).filter(Boolean).map(Number);
}
