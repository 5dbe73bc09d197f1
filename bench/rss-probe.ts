// Preloaded into a measured child (`node --import rss-probe.js ...`): at exit it writes the process's
// own peak RSS to fd 3, which the bench opened as a pipe; stdout and stderr stay the child's own.
import { writeSync } from 'node:fs';

// Registering at import is this module's whole job: it only exists to be preloaded.
process.on('exit', () => {
  try {
    writeSync(3, `maxrss=${process.resourceUsage().maxRSS}\n`);
  } catch {
    // No fd 3 (run without the bench): nothing to report to.
  }
});
