/**
 * The command-line entry as a bundle: `dist/cli/bin.js` and the chunks it loads on demand, in
 * `dist/chunks/`, made from `src/` (esbuild reads the TypeScript itself). Loading the 150 modules
 * of `dist/` and the 94 of zod one by one took a fifth of a warm run (0.34 s → 0.30 s at 10,000
 * files); the bundle loads a handful. What each command needs only sometimes (a provider's SDK,
 * tree-sitter, the MCP server, the evaluation harness) stays behind a dynamic import, in a chunk
 * of its own.
 *
 * The entry replaces the `dist/cli/bin.js` tsc wrote, at the path `bin` has always named, and it
 * must keep that path: npx keeps the link it made to a checkout's bin in its own cache, keyed by
 * the checkout's directory, and never makes it again. When the bin moved to `dist/bin/`, a new
 * clone at an old path ran the link to the old file (unbundled, not executable: "Permission
 * denied", exit 127).
 *
 * Entry and chunks sit two levels under the package root as every file of `dist/` does: the code
 * that finds `agents/`, `prompts/` and `package.json` from its own URL finds them from there too.
 * Left out of the bundle: the packages that locate files next to their own module
 * (web-tree-sitter's runtime wasm, the rg binary, the tokenizer's tables, loaded by path on a
 * thread) and the provider SDKs, loaded only with a model.
 */
import { chmodSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const ENTRY = 'dist/cli/bin.js';
rmSync('dist/chunks', { recursive: true, force: true });
rmSync('dist/bin', { recursive: true, force: true }); // where the bundle was written before
await build({
  entryPoints: { 'cli/bin': 'src/cli/bin.ts' },
  outdir: 'dist',
  allowOverwrite: true, // tsc's unbundled bin.js
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: 'tsconfig.json',
  chunkNames: 'chunks/[name]-[hash]',
  external: ['web-tree-sitter', '@vscode/ripgrep', 'gpt-tokenizer', '@anthropic-ai/sdk', 'openai'],
  // The CommonJS packages bundled (yaml, fast-glob…) require Node's own modules at run time: an
  // ES module has no `require` of its own, so each file of the bundle makes one.
  banner: { js: "import { createRequire as __ctxloopRequire } from 'node:module'; const require = __ctxloopRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});
chmodSync(ENTRY, 0o755);
