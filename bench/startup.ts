// Start-up cost: wall time of `tandem --version` and `tandem --help` (the built CLI, spawned as a user
// would), next to `node -e 0` measured in the same run as the floor no Node program can beat.
import { builtPaths, median, ratioRow, runNode, type SectionContext, type SectionResult } from './measure.js';

export const STARTUP_TARGET_MS = 200;

export async function runStartupBench(ctx: SectionContext): Promise<SectionResult> {
  const runs = ctx.quick ? 3 : 15;
  const { cli } = builtPaths(ctx.packageRoot);
  const env = { PATH: ctx.pathEnv, NO_COLOR: '1' };
  const timings = { node: [] as number[], version: [] as number[], help: [] as number[] };
  // One warm-up of each fills the OS file cache; then the three alternate so drift hits all alike.
  await runNode(['-e', '0'], { env });
  await runNode([cli, '--version'], { env });
  for (let round = 0; round < runs; round++) {
    timings.node.push((await runNode(['-e', '0'], { env })).ms);
    const version = await runNode([cli, '--version'], { env });
    if (version.code !== 0) throw new Error(`tandem --version exited ${version.code}: ${version.stderr.trim()}`);
    timings.version.push(version.ms);
    const help = await runNode([cli, '--help'], { env });
    if (help.code !== 0) throw new Error(`tandem --help exited ${help.code}: ${help.stderr.trim()}`);
    timings.help.push(help.ms);
  }
  const reference = { label: 'node -e 0', value: median(timings.node) };
  const target = `< ${STARTUP_TARGET_MS} ms`;
  const row = (metric: string, values: number[]) => {
    const value = median(values);
    return ratioRow(metric, value, 'ms', reference, { target, ok: value < STARTUP_TARGET_MS });
  };
  return {
    name: 'startup',
    rows: [{ metric: 'node -e 0', value: reference.value, unit: 'ms' }, row('tandem --version', timings.version), row('tandem --help', timings.help)],
    notes: [`median of ${runs} runs each, interleaved`],
  };
}
