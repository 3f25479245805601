import { describe, expect, it } from 'vitest';
import { bundledCodeOf } from '../../src/evaluate/offline/bundled.js';

/** A listing of `own` project files plus the given ones (enough own files that no small directory holds a quarter). */
function listing(...files: string[]): string[] {
  const own = Array.from({ length: 40 }, (_, i) => `src/core/file${i}.c`);
  return ['LICENSE', 'Makefile.am', ...own, ...files];
}

describe('bundledCodeOf', () => {
  it('marks a directory that carries its own licence and no manifest, and everything below it', () => {
    const bundled = bundledCodeOf(listing('src/decNumber/ICU-license.html', 'src/decNumber/decNumber.c', 'src/decNumber/sub/decimal64.c', 'lib/lua/COPYRIGHT', 'lib/lua/lapi.c'));
    expect(bundled('src/decNumber/decNumber.c')).toBe(true);
    expect(bundled('src/decNumber/sub/decimal64.c')).toBe(true);
    expect(bundled('lib/lua/lapi.c')).toBe(true);
    expect(bundled('src/core/file1.c')).toBe(false);
    // a sibling whose name starts the same is another directory
    expect(bundled('src/decNumberExtra/x.c')).toBe(false);
  });

  it('knows licences by their usual names and nothing else', () => {
    for (const name of ['LICENSE', 'LICENCE.txt', 'COPYING', 'license.md', 'LICENSE-MIT', 'ICU-license.html', 'fmt.license.rst', 'COPYRIGHT']) {
      expect(bundledCodeOf(listing(`deps/x/${name}`, 'deps/x/a.c'))('deps/x/a.c'), name).toBe(true);
    }
    for (const name of ['license.py', 'licenses.ts', 'copyright_header.c', 'README.md']) {
      expect(bundledCodeOf(listing(`deps/x/${name}`, 'deps/x/a.c'))('deps/x/a.c'), name).toBe(false);
    }
  });

  it('marks a directory named for code copied in, unless a manifest makes it a package', () => {
    expect(bundledCodeOf(listing('include/spdlog/fmt/bundled/format.h'))('include/spdlog/fmt/bundled/format.h')).toBe(true);
    expect(bundledCodeOf(listing('src/pip/_vendor/six.py'))('src/pip/_vendor/six.py')).toBe(true);
    expect(bundledCodeOf(listing('lib/thirdparty/x.c'))('lib/thirdparty/x.c')).toBe(true);
    expect(bundledCodeOf(listing('packages/bundled/package.json', 'packages/bundled/index.ts'))('packages/bundled/index.ts')).toBe(false);
    // a name that only contains the word is no mark
    expect(bundledCodeOf(listing('src/bundler/index.ts'))('src/bundler/index.ts')).toBe(false);
  });

  it('leaves alone a package of the repository itself: licence and manifest side by side', () => {
    for (const manifest of ['package.json', 'Cargo.toml', 'go.mod', 'pyproject.toml', 'setup.py', 'pom.xml', 'build.gradle.kts', 'composer.json', 'jsr.json', 'foo.gemspec', 'App.csproj']) {
      expect(bundledCodeOf(listing('packages/a/LICENSE', `packages/a/${manifest}`, 'packages/a/index.ts'))('packages/a/index.ts'), manifest).toBe(false);
    }
  });

  it('leaves alone the project\'s own package with its licence copied in (a manifest just above it), not code bundled deeper', () => {
    const files = ['pyproject.toml', 'LICENSE', 'mypkg/LICENSE', 'mypkg/core.py', 'mypkg/extern/lib/LICENSE.txt', 'mypkg/extern/lib/x.py', ...Array.from({ length: 40 }, (_, i) => `tests/t${i}.py`)];
    const bundled = bundledCodeOf(files);
    expect(bundled('mypkg/core.py')).toBe(false);
    expect(bundled('mypkg/extern/lib/x.py')).toBe(true);
  });

  it('leaves alone the root, documentation trees, and a directory holding much of the repository', () => {
    expect(bundledCodeOf(listing())('src/core/file1.c')).toBe(false);
    expect(bundledCodeOf(listing('docs/license.rst', 'docs/conf.py'))('docs/conf.py')).toBe(false);
    // the project's own package whose manifest a .gitignore hides from the listing
    const files = ['LICENSE', 'packages/zod/LICENSE', ...Array.from({ length: 30 }, (_, i) => `packages/zod/src/f${i}.ts`), ...Array.from({ length: 30 }, (_, i) => `packages/docs/f${i}.ts`)];
    expect(bundledCodeOf(files)('packages/zod/src/f1.ts')).toBe(false);
  });
});
