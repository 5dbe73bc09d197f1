// Peak memory: the CLI's own peak RSS during a one-shot request with a repo map on the large generated
// repository (cold cache and warm), next to the peak RSS of `node -e 0` in the same run.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { builtPaths, median, ratioRow, runNode, type SectionContext, type SectionResult } from './measure.js';
import { largeRepo, largeSize, startRequestRunner } from './one-shot.js';

/** Issue 28: a request with a cold map of the 1,600-file repository peaks under this. */
export const COLD_MAP_PEAK_MB = 300;

export async function runMemoryBench(ctx: SectionContext): Promise<SectionResult> {
  const runs = ctx.quick ? 1 : 5;
  const { rssProbe } = builtPaths(ctx.packageRoot);
  const runner = await startRequestRunner(ctx);
  try {
    const env = { PATH: ctx.pathEnv };
    const nodeRss: number[] = [];
    for (let i = 0; i < Math.max(runs, 3); i++) nodeRss.push((await runNode(['-e', '0'], { env, rssProbe })).peakRssMb);
    const reference = { label: 'node -e 0', value: median(nodeRss) };

    const repo = await largeRepo(ctx.cacheDir, largeSize(ctx.quick));
    ctx.log('memory: cold repo-map cache');
    // A cold request's peak moves by some 30 MB from run to run (when the collector runs): a median, like every other figure.
    const coldRuns: number[] = [];
    for (let i = 0; i < (ctx.quick ? 1 : 3); i++) {
      await repo.reset();
      await rm(path.join(repo.root, '.tandem'), { recursive: true, force: true });
      await runner.forgetUserCaches();
      coldRuns.push((await runner.request(repo, { rssProbe })).peakRssMb);
    }
    const cold = { peakRssMb: median(coldRuns) };
    // The cold requests filled the cache: every later one is warm.
    ctx.log('memory: warm repo-map cache');
    const warmRuns: number[] = [];
    for (let i = 0; i < runs; i++) {
      await repo.reset();
      warmRuns.push((await runner.request(repo, { rssProbe })).peakRssMb);
    }
    await repo.reset();
    const warm = median(warmRuns);
    if (!Number.isFinite(cold.peakRssMb) || !Number.isFinite(warm)) throw new Error('the RSS probe reported nothing');
    return {
      name: 'memory',
      rows: [
        { metric: 'node -e 0 peak RSS', value: reference.value, unit: 'MB' },
        ratioRow(`request, ${repo.files}-file repo, cold map`, cold.peakRssMb, 'MB', reference,
          ctx.quick ? {} : { target: `<= ${COLD_MAP_PEAK_MB} MB`, ok: cold.peakRssMb <= COLD_MAP_PEAK_MB }),
        ratioRow(`request, ${repo.files}-file repo, warm map`, warm, 'MB', reference),
      ],
      notes: [`peak RSS of the tandem process itself (tag worker threads included, git children not); cold = median of ${ctx.quick ? 1 : 3}, warm = median of ${runs}`],
    };
  } finally {
    await runner.close();
  }
}
