import { identifierTerms, identifiersOf, tokenize } from '../../core/text.js';

/**
 * The component a task's title names before its colon: `fix(adapter/aws-lambda): …`,
 * `feat(dev-server): …`, `ignore/types: …`, `unix,readv: …`, `httpcaddyfile: …`. Commit titles and
 * the issue titles of many projects (Go's `net/http: …`) start so. Such a prefix names a
 * directory or a file more often than anything the title says after it.
 */
const CONVENTIONAL = /^\s*[a-z]{2,12}\(([^()\n]{1,60})\)!?:\s/;
/** The same without its colon (`fix(workspace) do not allow …`), from a known type only: `print(x) fails` names a call. */
const CONVENTIONAL_BARE = /^\s*(?:fix|feat|feature|chore|refactor|perf|docs|test|build|ci|style|revert|hotfix|bugfix)\(([^()\n]{1,60})\)!?\s/;
const SUBSYSTEM = /^\s*([A-Za-z][\w.\-/,+]{1,59}):\s/;

/** Prefixes that say what kind of change it is, not where: the conventional-commit types and their kin. */
const NOT_A_PLACE = new Set(
  'fix fixes fixed feat feature features bug bugfix hotfix chore chores docs doc test tests ci build refactor perf style revert regression wip breaking security deps dependencies release question proposal enhancement improvement update add remove rfc note todo warning error important panic fatal traceback failed failure crash segfault critical blocker help exception'.split(' '),
);

/**
 * An issue template's headings (`Summary: login fails …`, `Expected: …`), written capitalised as
 * headings are: a report's parts, not a place. Lowercase, some of them are packages too (Go's
 * `context: …`, `errors: …`), so only these few never count.
 */
const HEADINGS = new Set(
  'summary description problem context expected actual observed steps reproduce reproduction environment motivation background issue proposal request solution workaround result results symptom symptoms behavior behaviour overview details detail info example examples tldr update edit note notes question bug error errors version versions platform setup'.split(' '),
);
const ALWAYS_HEADINGS = new Set('summary description problem expected actual observed steps reproduction motivation background proposal workaround symptom symptoms tldr'.split(' '));

const VERSION = /^v?\d/i;

/** An exception's name before its message (`TypeError: …`): the error, not a place. */
const ERROR_NAME = /(?:Error|Exception|Warning|Failure|Fault)$/;

/**
 * The title's scope as parts (split at `/`, `,`, `+` and spaces), each the identifiers it is
 * written with (`dev-server` → `dev`, `server`); none when the title names no place.
 */
export function titleScope(task: string): string[][] {
  const title = task.split('\n', 1)[0] ?? '';
  const scope = (CONVENTIONAL.exec(title) ?? CONVENTIONAL_BARE.exec(title) ?? SUBSYSTEM.exec(title))?.[1];
  if (scope === undefined || ERROR_NAME.test(scope) || NOT_A_PLACE.has(scope.toLowerCase()) || isHeading(scope)) return [];
  return (
    scope
      .split(/[/,+\s]+/)
      // a version (`v2.3.0`, `3.0`) is a release, and a part holding a change type (`deps-dev`) a kind of change
      .filter((part) => !VERSION.test(part))
      .map((part) => identifiersOf(part))
      .filter((ids) => ids.length > 0 && !ids.some((id) => NOT_A_PLACE.has(id.toLowerCase())) && ids.some((id) => identifierTerms(id).length > 0))
  );
}

/**
 * Share of the scope's parts a path holds. A part is held when each of its identifiers stands in
 * the path as a whole term or by all its parts (`aws-lambda` in `src/adapter/aws-lambda/handler.ts`,
 * `types` in `crates/ignore/src/default_types.rs`).
 */
export function scopeShare(path: string, scope: readonly string[][]): number {
  if (scope.length === 0) return 0;
  const terms = new Set(tokenize(path));
  const held = scope.filter((ids) =>
    ids.every((id) => {
      const parts = identifierTerms(id);
      return parts.length > 0 && (terms.has(parts[0]!) || parts.every((p) => terms.has(p)));
    }),
  );
  return held.length / scope.length;
}

function isHeading(scope: string): boolean {
  const lower = scope.toLowerCase();
  return HEADINGS.has(lower) && (scope !== lower || ALWAYS_HEADINGS.has(lower));
}
