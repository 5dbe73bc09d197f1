// After tsc: bundles the CLI into the file package.json's `bin` names, so a run loads a few files
// instead of some 350 modules (openai alone is 150), and makes it executable (tsc keeps no modes).
// The tags worker is a second entry beside it: tags-pool finds it as `./tags-worker.js` next to itself.
// Packages that load files relative to themselves (wasm, grammars) stay outside the bundle.
import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin.tandem;
const outdir = join(root, dirname(bin));

// OpenTelemetry's packages ship ES modules beside the CommonJS that esbuild picks for Node: bundling the
// ES modules lets it leave out what tracing does not use (the tracing chunk: ~700 KB of CommonJS, ~150 KB).
const openTelemetryAsEsm = {
  name: 'opentelemetry-esm',
  setup(bundler) {
    bundler.onResolve({ filter: /^@opentelemetry\// }, async (args) => {
      if (args.pluginData === 'opentelemetry-esm') return undefined;
      const resolved = await bundler.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'opentelemetry-esm' });
      const esm = resolved.path.replace('/build/src/', '/build/esm/');
      return esm !== resolved.path && existsSync(esm) ? { path: esm } : resolved;
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  plugins: [openTelemetryAsEsm],
  absWorkingDir: root,
  entryPoints: {
    [basename(bin, extname(bin))]: 'dist/src/cli/main.js',
    'tags-worker': 'dist/src/repomap/tags-worker.js',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['web-tree-sitter', 'tiktoken', 'tree-sitter-wasms', 'cli-highlight'],
  // Bundled CommonJS packages (yaml) call require() for Node's built-ins, which an ES module lacks.
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module';\nconst require = createRequireForBundle(import.meta.url);" },
  logLevel: 'warning',
});
chmodSync(join(root, bin), 0o755);
