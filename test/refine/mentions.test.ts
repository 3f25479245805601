import { describe, expect, it } from 'vitest';
import { planQuery } from '../../src/refine/plan.js';

describe('planQuery on a task holding a stack trace', () => {
  it('takes Go frames: their files nearest the panic first, their functions as symbols', () => {
    const plan = planQuery(
      [
        'Cache lookups panic after a reload',
        '',
        'panic: runtime error: index out of range [5] with length 0',
        'goroutine 1 [running]:',
        'github.com/acme/proj/internal/store.(*Cache).Get(...)',
        '\t/root/go/pkg/mod/github.com/acme/proj@v1.2.0/internal/store/cache.go:27',
        'github.com/acme/proj/internal/api.serveItem(0xc0000a2000)',
        '\t/home/ci/work/proj/internal/api/items.go:40 +0x1d',
        'main.main()',
        '\t/home/ci/work/proj/cmd/proj/main.go:9 +0x25',
      ].join('\n'),
    );
    expect(plan.paths.slice(0, 3)).toEqual(['root/go/pkg/mod/github.com/acme/proj@v1.2.0/internal/store/cache.go', 'home/ci/work/proj/internal/api/items.go', 'home/ci/work/proj/cmd/proj/main.go']);
    expect(plan.symbols.slice(0, 2)).toEqual(['Get', 'serveItem']);
    // `main` is every program's entry point: it says nothing about where the bug is.
    expect(plan.symbols).not.toContain('main');
  });

  it('takes gdb frames nearest the crash first, the C library frame after them', () => {
    const plan = planQuery(['Crash on implode', '#0  0x00007ffff729da28 in __GI_raise (sig=6) at ../sysdeps/unix/sysv/linux/raise.c:55', '#1  0x00007ffff7babe46 in jv_string_implode (j=...) at jv.c:717', '#2  0x00007ffff7ba73dd in f_string_implode (jq=0x0, a=...) at builtin.c:969'].join('\n'));
    expect(plan.symbols.slice(0, 2)).toEqual(['jv_string_implode', 'f_string_implode']);
    expect(plan.paths.slice(0, 2)).toEqual(['jv.c', 'builtin.c']);
    expect(plan.paths.indexOf('sysdeps/unix/sysv/linux/raise.c')).toBeGreaterThan(1);
  });

  it("names a code host's linked file by its path in the repository, and a directory's link by nothing", () => {
    const plan = planQuery(['Wrong offset', 'https://gitlab.com/group/proj/-/blob/main/src/foo/bar.py#L10-20', 'docs: https://github.com/o/r/tree/master/docs/', 'https://example.com/guide/setup.md'].join('\n'));
    expect(plan.paths).toEqual(['src/foo/bar.py', 'example.com/guide/setup.md']);
  });
});

