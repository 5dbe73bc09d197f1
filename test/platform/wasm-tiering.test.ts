// Grammar code compiles with V8's tier-up off (flags restored after), windows of concurrent loads
// never overlap, and a real grammar's giant lexer is never handed to TurboFan (built dist/).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { compileEagerly, compileOnBaselineTier, releaseTieringLockOf, tieringLock } from '../../src/platform/wasm-tiering.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function recorder(): { calls: string[]; setFlags: (flag: string) => void } {
  const calls: string[] = [];
  return { calls, setFlags: (flag) => void calls.push(flag) };
}

describe('compileOnBaselineTier', () => {
  it('turns tier-up off for the compile and back on after', async () => {
    const { calls, setFlags } = recorder();
    const result = await compileOnBaselineTier(async () => {
      calls.push('compile');
      return 7;
    }, { setFlags, execArgv: [] });
    expect(result).toBe(7);
    expect(calls).toEqual([
      '--no-wasm-dynamic-tiering', '--no-wasm-tier-up', '--no-wasm-lazy-compilation', 'compile',
      '--wasm-dynamic-tiering', '--wasm-tier-up', '--wasm-lazy-compilation',
    ]);
  });

  it('restores the flags when the compile fails', async () => {
    const { calls, setFlags } = recorder();
    await expect(compileOnBaselineTier(() => Promise.reject(new Error('bad wasm')), { setFlags, execArgv: [] })).rejects.toThrow('bad wasm');
    expect(calls.slice(-3)).toEqual(['--wasm-dynamic-tiering', '--wasm-tier-up', '--wasm-lazy-compilation']);
  });

  it("leaves V8's flags alone when the user chose how wasm compiles", async () => {
    const { calls, setFlags } = recorder();
    await compileOnBaselineTier(async () => calls.push('compile'), { setFlags, execArgv: ['--liftoff-only'] });
    await compileEagerly(async () => calls.push('compile'), { setFlags, execArgv: ['--no-wasm-lazy-compilation'] });
    expect(calls).toEqual(['compile', 'compile']);
  });

  it('never lets two windows overlap', async () => {
    const { calls, setFlags } = recorder();
    let release: () => void = () => {};
    const slow = compileOnBaselineTier(() => new Promise<void>((resolve) => {
      calls.push('slow compile');
      release = resolve;
    }), { setFlags, execArgv: [] });
    const eager = compileEagerly(async () => calls.push('eager compile'), { setFlags, execArgv: [] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).not.toContain('eager compile');
    release();
    await Promise.all([slow, eager]);
    // The eager window opens only after the first one restored every flag.
    expect(calls.indexOf('--no-wasm-lazy-compilation', calls.indexOf('--wasm-lazy-compilation'))).toBeGreaterThan(calls.indexOf('--wasm-lazy-compilation'));
    expect(calls.slice(-3)).toEqual(['--no-wasm-lazy-compilation', 'eager compile', '--wasm-lazy-compilation']);
  });
});

describe('a grammar loaded by the grammar loader', () => {
  const loaderModule = path.join(ROOT, 'dist', 'src', 'platform', 'tree-sitter.js');

  it.skipIf(!existsSync(loaderModule))('keeps its lexer off TurboFan (counted in V8\'s compile trace)', () => {
    // bash's lexer is one 213 KB function: V8 would hand it to TurboFan after a few lines of bash.
    const script = [
      `const { createGrammarLoader } = await import(${JSON.stringify(pathToFileURL(loaderModule).href)});`,
      "const parser = await createGrammarLoader().parser('bash');",
      "const text = 'for f in *.txt; do\\n  echo \"$f\" | grep -v foo > /dev/null && cat \"$f\"\\ndone\\n'.repeat(40);",
      'for (let i = 0; i < 5; i++) parser.parse(text).delete();',
    ].join('\n');
    const trace = execFileSync(process.execPath, ['--trace-wasm-compilation-times', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: ROOT });
    const bodySizes = (tier: string): number[] => [...trace.matchAll(new RegExp(`using ${tier}\\b.*bodysize (\\d+)`, 'g'))].map((m) => Number(m[1]));
    // The trace works and saw the lexer compiled (on Liftoff), and TurboFan got no grammar-sized function.
    expect(bodySizes('Liftoff').some((size) => size > 200_000)).toBe(true);
    expect(bodySizes('TurboFan').filter((size) => size > 50_000)).toEqual([]);
  });

  it.skipIf(!existsSync(loaderModule))("keeps a syntax check's runtime on Liftoff: no TurboFan compile after a small parse", () => {
    // The runtime's parse function (27 KB of wasm) counts as hot within one small parse; tiered, TurboFan
    // compiles it in the background, which a short run waits for at exit.
    const trace = (tier: string): string => {
      const script = [
        `const { createGrammarLoader } = await import(${JSON.stringify(pathToFileURL(loaderModule).href)});`,
        `const parser = await createGrammarLoader({ runtimeTier: '${tier}' }).parser('python');`,
        "parser.parse('def hello():\\n    print(\"hello, world\")\\n').delete();",
        'await new Promise((resolve) => setTimeout(resolve, 1000));',
      ].join('\n');
      return execFileSync(process.execPath, ['--trace-wasm-compilation-times', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: ROOT });
    };
    const turboFan = (text: string): number => [...text.matchAll(/using TurboFan/g)].length;
    // The trace sees the tiered runtime's compile (so a zero below means something).
    expect(turboFan(trace('tiered'))).toBeGreaterThan(0);
    expect(turboFan(trace('baseline'))).toBe(0);
  });

  it('is freed for a worker ended inside its window, flags restored, so the next window opens at once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tandem-tiering-'));
    const script = path.join(dir, 'holder.mjs');
    // A thread that opens a window and never closes it (a grammar still compiling when the pool ends it).
    writeFileSync(script, [
      "import { parentPort, workerData } from 'node:worker_threads';",
      'const tiering = await import(workerData.module);',
      'tiering.adoptTieringLock(workerData.lock);',
      "void tiering.compileOnBaselineTier(() => { parentPort.postMessage('holding'); return new Promise(() => {}); }, { setFlags: () => {}, execArgv: [] });",
    ].join('\n'));
    const moduleUrl = pathToFileURL(path.join(ROOT, 'src/platform/wasm-tiering.ts')).href;
    const built = pathToFileURL(path.join(ROOT, 'dist/src/platform/wasm-tiering.js')).href;
    try {
      const worker = new Worker(script, { workerData: { module: existsSync(fileURLToPath(built)) ? built : moduleUrl, lock: tieringLock() } });
      const id = worker.threadId;
      await new Promise((resolve) => worker.once('message', resolve));
      await worker.terminate();

      const { calls, setFlags } = recorder();
      expect(releaseTieringLockOf(id, { setFlags })).toBe(true);
      expect(calls).toEqual(['--wasm-dynamic-tiering', '--wasm-tier-up', '--wasm-lazy-compilation']);
      expect(releaseTieringLockOf(id, { setFlags })).toBe(false);

      let compiled = false;
      const next = compileOnBaselineTier(async () => void (compiled = true), { setFlags: () => {}, execArgv: [] });
      await new Promise((resolve) => setImmediate(resolve));
      expect(compiled).toBe(true);
      await next;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
