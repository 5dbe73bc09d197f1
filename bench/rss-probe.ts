// Preloaded into a measured child (`node --import rss-probe.js ...`): at exit it writes the process's
// own peak RSS in KiB and its CPU time (user + system, ms) to fd 3, which the bench opened as a pipe; stdout and stderr stay the child's own.
import { readFileSync, writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/**
 * Linux's VmHWM belongs to this program's address space alone. getrusage's maxRSS does not: after
 * fork+exec it keeps the forking parent's peak, so a child of a big bench process reports the bench's size.
 */
function peakRssKiB(): number {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // Not Linux: fall back to getrusage.
  }
  return process.resourceUsage().maxRSS;
}

// Registering at import is this module's whole job: it only exists to be preloaded. Worker threads
// inherit the preload and have their own 'exit': a parser thread ending mid-run would otherwise
// report the process's peak so far, before the main thread's (the bench reads the first report).
if (isMainThread) process.on('exit', () => {
  try {
    const cpu = process.cpuUsage();
    writeSync(3, `maxrss=${peakRssKiB()}\ncpu=${(cpu.user + cpu.system) / 1000}\n`);
  } catch {
    // No fd 3 (run without the bench): nothing to report to.
  }
});
