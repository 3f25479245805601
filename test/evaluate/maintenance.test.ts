import { describe, expect, it } from 'vitest';
import { maintenanceScriptsOf } from '../../src/evaluate/offline/maintenance.js';

/** A listing of 60 project files plus the given ones. */
function listing(...files: string[]): string[] {
  return ['README.md', ...Array.from({ length: 60 }, (_, i) => `src/pkg/file${i}.py`), ...files];
}

describe('maintenanceScriptsOf', () => {
  it('marks the top-level directories repositories keep their scripts in, and everything below them', () => {
    const scripts = maintenanceScriptsOf(listing('scripts/populate_tox/config.py', 'tools/make-closure.js', 'hack/verify.sh', 'ci/run.py', 'build-tools/gen.ts'));
    for (const path of ['scripts/populate_tox/config.py', 'tools/make-closure.js', 'hack/verify.sh', 'ci/run.py', 'build-tools/gen.ts']) expect(scripts(path), path).toBe(true);
    expect(scripts('src/pkg/file1.py')).toBe(false);
    expect(scripts('README.md')).toBe(false);
  });

  it('leaves alone such names below the top, names that only contain the word, and directories not in the listing', () => {
    const scripts = maintenanceScriptsOf(listing('src/tools/format.py', 'toolsets/a.py', 'scripting/b.py', 'bin/cli.py'));
    for (const path of ['src/tools/format.py', 'toolsets/a.py', 'scripting/b.py', 'bin/cli.py', 'tools/not-listed.py']) expect(scripts(path), path).toBe(false);
  });

  it('leaves alone a directory of that name holding much of the repository: a product of its own', () => {
    const goctl = Array.from({ length: 30 }, (_, i) => `tools/goctl/util/f${i}.go`);
    const scripts = maintenanceScriptsOf(listing(...goctl, 'scripts/release.sh'));
    expect(scripts('tools/goctl/util/f1.go')).toBe(false);
    expect(scripts('scripts/release.sh')).toBe(true);
  });
});
