/**
 * The command-line entry as a bundle: `dist/bin/ctxloop.js` and the chunks it loads on demand,
 * made from what `tsc` wrote to `dist/`. Loading the 150 modules of `dist/` and the 94 of zod
 * one by one took a fifth of a warm run (0.34 s → 0.30 s at 10,000 files); the bundle loads a
 * handful. What each command needs only sometimes (a provider's SDK, tree-sitter, the MCP
 * server, the evaluation harness) stays behind a dynamic import, in a chunk of its own.
 *
 * The chunks sit beside the entry, two levels under the package root as every file of `dist/`
 * does: the code that finds `agents/`, `prompts/` and `package.json` from its own URL finds them
 * from there too. Left out of the bundle: the packages that locate files next to their own
 * module (web-tree-sitter's runtime wasm, the rg binary, the tokenizer's tables, loaded by path
 * on a thread) and the provider SDKs, loaded only with a model.
 */
import { chmodSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/bin';
rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: { ctxloop: 'dist/cli/bin.js' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  external: ['web-tree-sitter', '@vscode/ripgrep', 'gpt-tokenizer', '@anthropic-ai/sdk', 'openai'],
  // The CommonJS packages bundled (yaml, fast-glob…) require Node's own modules at run time: an
  // ES module has no `require` of its own, so each file of the bundle makes one.
  banner: { js: "import { createRequire as __ctxloopRequire } from 'node:module'; const require = __ctxloopRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});
chmodSync(`${OUT}/ctxloop.js`, 0o755);
