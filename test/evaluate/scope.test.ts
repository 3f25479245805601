import { describe, expect, it } from 'vitest';
import { scopeShare, titleScope } from '../../src/evaluate/offline/scope.js';

describe('titleScope', () => {
  it('reads the place a title names before its colon: a conventional scope, a subsystem, a path, a list', () => {
    expect(titleScope('fix(adapter/aws-lambda): keep the body\n\nmore')).toEqual([['adapter'], ['aws', 'lambda']]);
    expect(titleScope('feat(dev-server)!: add "ping" route')).toEqual([['dev', 'server']]);
    expect(titleScope('ignore/types: add `ssa` type')).toEqual([['ignore'], ['types']]);
    expect(titleScope('unix,readv: retry on EINTR')).toEqual([['unix'], ['readv']]);
    expect(titleScope('fix(workspace) do not allow reserved names')).toEqual([['workspace']]);
  });

  it('finds no place in a change type, an exception, a version, a call or an ordinary title', () => {
    for (const title of ['fix: crash on empty input', 'feat!: drop node 16', 'TypeError: x is undefined', 'ValueError: bad value', '3.0: crash', 'v2.3.0: release notes', 'print(value) fails on None', 'Crash when the list is empty: a report', 'chore(deps): bump x', 'build(deps-dev): bump vitest', 'panic: runtime error', 'fatal: not a git repository', 'Traceback: (most recent call last)']) {
      expect(titleScope(title), title).toEqual([]);
    }
    // an issue template's headings are a report's parts; lowercase, a package may share the name (Go's `context`)
    for (const title of ['Summary: login fails after reset', 'Expected: a 200', 'Context: we deploy on k8s', 'DESCRIPTION: x', 'summary: x']) {
      expect(titleScope(title), title).toEqual([]);
    }
    expect(titleScope('context: make WithDeadline cancel children')).toEqual([['context']]);
    // only the first line is a title
    expect(titleScope('A crash\nnet/http: this line is the body')).toEqual([]);
  });
});

describe('scopeShare', () => {
  it('is the share of the scope\'s parts the path holds, by whole name or by all its words', () => {
    const scope = titleScope('ignore/types: add ssa');
    expect(scopeShare('crates/ignore/src/default_types.rs', scope)).toBe(1);
    expect(scopeShare('crates/ignore/src/walk.rs', scope)).toBe(0.5);
    expect(scopeShare('crates/core/app.rs', scope)).toBe(0);
    const dashed = titleScope('feat(dev-server): add');
    expect(scopeShare('src/compiler/config/validate-dev-server.ts', dashed)).toBe(1);
    expect(scopeShare('src/dev-server/request-handler.ts', dashed)).toBe(1);
    expect(scopeShare('src/server/dev.ts', dashed)).toBe(1);
    expect(scopeShare('src/sys/node/bundles/ws.js', dashed)).toBe(0);
    expect(scopeShare('caddyconfig/httpcaddyfile/httptype.go', titleScope('httpcaddyfile: add a shortcut'))).toBe(1);
    expect(scopeShare('kong/db/schema/entities/workspaces.lua', titleScope('fix(workspace) do not allow'))).toBe(1);
    expect(scopeShare('src/a.ts', [])).toBe(0);
  });
});
