import { describe, expect, it } from 'vitest';
import { fileKindOf, languageOf, matchForeignPath, matchPathMention } from '../../src/core/files.js';
import { packageSiblings, resolveImport } from '../../src/core/imports.js';
import { isDefinitionLine } from '../../src/core/definitions.js';
import { identifierTerms, splitIdentifier, stem, tokenize } from '../../src/core/text.js';

describe('tokenize', () => {
  it('cuts camelCase, snake_case and CONSTANT_CASE into the same terms', () => {
    expect(identifierTerms('verifyEmail')).toEqual(['verifyemail', 'verify', 'email']);
    expect(identifierTerms('verify_email')).toEqual(['verifyemail', 'verify', 'email']);
    expect(identifierTerms('VERIFY_EMAIL')).toEqual(['verifyemail', 'verify', 'email']);
    expect(splitIdentifier('parseHTTPRequest_v2')).toEqual(['parse', 'http', 'request', 'v2']);
  });

  it('stems the usual suffixes to one form', () => {
    expect(new Set(['parse', 'parsing', 'parsed', 'parses'].map(stem))).toEqual(new Set(['pars']));
    expect(stem('entries')).toBe(stem('entry'));
    expect(stem('running')).toBe('run');
    expect(stem('class')).toBe('class');
  });

  it('keeps -ing and -ed where no vowel would be left (string is not str)', () => {
    expect(stem('string')).toBe('string');
    expect(stem('strings')).toBe('string');
    expect(stem('spring')).toBe('spring');
    expect(stem('shred')).toBe('shred');
    // y counts as a vowel there: trying is try
    expect(stem('trying')).toBe(stem('try'));
    expect(stem('styling')).toBe(stem('styled'));
  });

  it('cuts ASCII as the Unicode pattern does, and other scripts by that pattern', () => {
    const unicodeCut = (identifier: string): string[] =>
      identifier
        .split(/[_$]+/)
        .flatMap((chunk) => chunk.match(/\p{Lu}+\p{N}*(?![\p{Ll}])|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{M}]+\p{N}*|\p{N}+/gu) ?? [])
        .map((piece) => piece.toLowerCase());
    // every identifier of up to four characters from a set covering each kind of boundary
    const alphabet = ['a', 'z', 'A', 'Z', '0', '9', '_', '$'];
    let identifiers = [''];
    for (let length = 0; length < 4; length++) identifiers = [...identifiers, ...identifiers.flatMap((id) => alphabet.map((c) => id + c))];
    identifiers.push('parseHTTPRequest_v2', 'XMLHttpRequest2', 'IOError', 'utf8Decoder', '__init__', 'getOS');
    for (const id of new Set(identifiers)) expect(splitIdentifier(id), id).toEqual(unicodeCut(id));
    expect(splitIdentifier('проверитьПочту_v2')).toEqual(['проверить', 'почту', 'v2']);
    expect(tokenize('ошибка в parseJSON')).toEqual(['ошибка', 'parsejson', 'pars', 'json']);
  });

  it('drops numbers and one-letter parts', () => {
    expect(tokenize('x = 42; a_b')).toEqual([]);
  });
});

describe('paths', () => {
  it('matches mentions by suffix, extension-less and package entries', () => {
    expect(matchPathMention('src/sqlfluff/core/parser/helpers.py', 'sqlfluff/core/parser/helpers.py')).toBe(4);
    expect(matchPathMention('src/sqlfluff/core/parser/helpers.py', 'core/parser/helpers')).toBe(3);
    expect(matchPathMention('astroid/nodes/__init__.py', 'astroid/nodes')).toBe(2);
    expect(matchPathMention('lib/xhelpers.py', 'helpers.py')).toBe(0);
  });

  it('matches a path from another machine by the repository file at its tail', () => {
    expect(matchForeignPath('astroid/nodes/node_classes.py', 'home/me/projects/astroid/astroid/nodes/node_classes.py')).toBe(3);
    // a package installed under its own name: node_modules/axios/lib/utils.js
    expect(matchForeignPath('lib/utils.js', 'axios/lib/utils.js')).toBe(2);
    expect(matchForeignPath('lib/xutils.js', 'axios/lib/utils.js')).toBe(0);
    // one segment is as likely the reporter's own script
    expect(matchForeignPath('main.py', 'home/me/app/main.py')).toBe(0);
  });

  it('tells code from tests, docs and generated files', () => {
    expect(fileKindOf('src/auth/verify.ts')).toBe('code');
    expect(fileKindOf('src/auth/verify.test.ts')).toBe('test');
    expect(fileKindOf('tests/unit/test_x.py')).toBe('test');
    // test projects named for what they test, and Kotlin's test source sets
    for (const test of ['Src/Newtonsoft.Json.Tests/TestFixtureBase.cs', 'Src/Newtonsoft.Json.FuzzTests/Program.cs', 'moshi-kotlin-tests/src/main/kotlin/A.kt', 'okhttp/src/jvmTest/kotlin/D.kt', 'lib/src/androidTest/E.kt']) expect(fileKindOf(test), test).toBe('test');
    // products named for testing are code
    for (const code of ['src/contest/score.ts', 'src/pytest_plugin/hooks.py', 'src/latest/feed.go', 'src/Tester/CommandTester.php', 'src/attest/verify.rs', 'lib/unitTest.ts', 'packages/playwright-test/src/runner/runner.ts', 'packages/test-runner-core/src/a.ts', 'src/features/ab-test/flag.ts', 'app/src/main/abTest/AbTestManager.kt', 'src/speed-test/server.go', 'lib/load_test/run.py']) expect(fileKindOf(code), code).toBe('code');
    expect(fileKindOf('README.md')).toBe('doc');
    // declarations kept in the repository are written by hand; emitted ones sit in a build directory
    for (const typings of ['index.d.ts', 'index.d.cts', 'types/index.d.ts', 'src/env.d.mts']) expect(fileKindOf(typings)).toBe('declaration');
    expect(fileKindOf('dist/index.d.ts')).toBe('generated');
    // where generators write: ANTLR's Go target split by hand carries no "Code generated" line, only its directory says so
    for (const out of ['tools/goctl/api/parser/g4/gen/api/apiparser_parser4.go', 'src/__generated__/UserQuery.graphql.ts', 'api/generated/models.py', 'thrift/gen-py/service/ttypes.py', 'gen/go/user/v1/user.pb.validate.go']) expect(fileKindOf(out), out).toBe('generated');
    // a command named gen is its own source; `generator/` and `genesis/` are no output directories
    for (const code of ['cmd/gen/main.go', 'tools/cmd/gen/main.go', 'src/generator/emit.ts', 'src/genesis/block.go']) expect(fileKindOf(code), code).toBe('code');
    // project files an IDE writes: Xcode's project and schemes (inside an example or not), IntelliJ's modules
    for (const ide of ['Alamofire.xcodeproj/project.pbxproj', 'Example/iOS Example.xcodeproj/project.pbxproj', 'Alamofire.xcodeproj/xcshareddata/xcschemes/Alamofire iOS.xcscheme', 'Alamofire.xcworkspace/contents.xcworkspacedata', 'okhttp.iml']) expect(fileKindOf(ide), ide).toBe('generated');
    expect(fileKindOf('examples/basic.go')).toBe('example');
    expect(fileKindOf('.github/workflows/ci.yml')).toBe('tooling');
    // the forms issues and pull requests are filed through: every task's scaffolding, no code
    for (const form of ['.github/ISSUE_TEMPLATE/bug_report.md', '.github/ISSUE_TEMPLATE.md', '.github/PULL_REQUEST_TEMPLATE.md', 'docs/pull_request_template.md', '.gitlab/issue_templates/Bug.md', '.github/DISCUSSION_TEMPLATE/ideas.yml', 'ISSUE_TEMPLATE']) expect(fileKindOf(form)).toBe('form');
    expect(fileKindOf('src/issue_template.ts')).toBe('code');
    expect(fileKindOf('scripts/release.sh')).toBe('tooling');
    expect(fileKindOf('scripts/crosscompile')).toBe('tooling');
    // test-runner and task-runner configs, as `*.config.js` files are
    for (const config of ['karma.conf.cjs', 'wdio.conf.js', 'rollup.config.mjs', 'Gruntfile.js', 'gulpfile.ts']) expect(fileKindOf(config)).toBe('config');
    expect(fileKindOf('lib/conf.js')).toBe('code');
    // An unknown extension inside the source tree is a language we don't list, not data.
    expect(fileKindOf('src/builtin.jq')).toBe('code');
    expect(fileKindOf('assets/manual/bat.1.in')).toBe('data');
    expect(languageOf('a/b.rs')).toBe('rust');
  });

  it('resolves relative and dotted imports against the file list', () => {
    const files = ['src/auth/verify.ts', 'src/auth/index.ts', 'pkg/core/parser/helpers.py', 'pkg/core/__init__.py'];
    expect(resolveImport('src/auth/index.ts', './verify', 'typescript', files)).toEqual(['src/auth/verify.ts']);
    expect(resolveImport('pkg/core/x.py', 'pkg.core.parser.helpers', 'python', files)).toEqual(['pkg/core/parser/helpers.py']);
    expect(resolveImport('pkg/core/parser/x.py', '.helpers', 'python', files)).toEqual(['pkg/core/parser/helpers.py']);
    expect(resolveImport('src/a.ts', 'react', 'typescript', files)).toEqual([]);
  });

  it('resolves a Go import to the package directory, never the standard library to a file', () => {
    const files = ['core/logx/logs.go', 'core/logx/fields.go', 'core/logx/logs_test.go', 'util/ctx/context.go', 'rest/server.go', 'rest/engine.go'];
    expect(resolveImport('rest/server.go', 'github.com/org/repo/core/logx', 'go', files)).toEqual(['core/logx/logs.go', 'core/logx/fields.go']);
    expect(resolveImport('rest/server.go', 'context', 'go', files)).toEqual([]);
    expect(resolveImport('rest/server.go', 'net/http', 'go', files)).toEqual([]);
    expect(packageSiblings('rest/server.go', 'go', files)).toEqual(['rest/engine.go']);
    expect(packageSiblings('src/a.ts', 'typescript', ['src/a.ts', 'src/b.ts'])).toEqual([]);
  });
});

describe('isDefinitionLine', () => {
  it('knows definitions and assignments from uses', () => {
    expect(isDefinitionLine('export async function verifyEmail(user) {', 'verifyEmail')).toBe(true);
    expect(isDefinitionLine('def load_config(path):', 'load_config')).toBe(true);
    expect(isDefinitionLine('func (s *Server) Serve(l net.Listener) error {', 'Serve')).toBe(true);
    expect(isDefinitionLine('pub fn highlight(&self) -> Result<()> {', 'highlight')).toBe(true);
    expect(isDefinitionLine('static int jv_parse(struct parser *p) {', 'jv_parse')).toBe(true);
    expect(isDefinitionLine('  app.settings.timeout = 30;', 'timeout')).toBe(true);
    expect(isDefinitionLine('await verifyEmail(user);', 'verifyEmail')).toBe(false);
    expect(isDefinitionLine('if (timeout == 30) {', 'timeout')).toBe(false);
    expect(isDefinitionLine('return load_config(path)', 'load_config')).toBe(false);
    expect(isDefinitionLine('// verifyEmail = old', 'verifyEmail')).toBe(false);
    expect(isDefinitionLine("    >>> ds.PatientName = 'CITIZEN^Joan'", 'PatientName')).toBe(false);
  });

  it('reads a member by the colon after its name, not a qualified name or a Ruby symbol argument', () => {
    for (const [line, name] of [['  timeout: 30,', 'timeout'], ['  name?: string;', 'name'], ['  name : string;', 'name'], ['    retries: int = 3', 'retries']]) {
      expect(isDefinitionLine(line!, name!), line).toBe(true);
    }
    // each of these "defined" the qualifier: seven files of a sub-gem defined Rack, eight C++ files std
    for (const [line, name] of [['std::fill_n(out, n, c);', 'std'], ['  Rack::Logger.new(app)', 'Rack'], ['Carbon::setLocale($locale);', 'Carbon'], ['    content_type :html', 'content_type'], ['set :logging, true', 'set']]) {
      expect(isDefinitionLine(line!, name!), line).toBe(false);
    }
  });
});
