import { resolveImport } from '../../core/imports.js';
import { tokenize, wholeTerm } from '../../core/text.js';
import type { Candidate, FileFacts, Query } from '../../core/types.js';
import { isDefinitionLine } from '../../core/definitions.js';
import { mayDefine } from '../../core/files.js';
import { own } from '../../core/records.js';

const MAX_GAPS_PER_FILE = 6;

/**
 * What a strong file points at that nothing retrieved provides: task-related symbols it calls
 * that no retrieved file defines, and task-related imports not yet among the candidates.
 * Encoded as `symbol:NAME` / `import:PATH` so refine can act on them.
 */
export function findMissing(
  file: FileFacts,
  plan: Query,
  pool: ReadonlyMap<string, Candidate>,
  allFacts: ReadonlyMap<string, FileFacts>,
  files: readonly string[],
  isTop: boolean,
): string[] {
  const missing: string[] = [];
  const strong = new Set(plan.keywords.filter((k) => (own(plan.weights, k) ?? 0) >= 0.9));
  const symbols = new Set(plan.symbols);
  const related = (name: string): boolean => symbols.has(name) || strong.has(wholeTerm(name));

  for (const call of file.calls) {
    if (missing.length >= MAX_GAPS_PER_FILE) break;
    if (!related(call) || isDefinedSomewhere(call, pool, allFacts)) continue;
    missing.push(`symbol:${call}`);
  }

  const keywords = new Set(plan.keywords);
  let followed = 0;
  for (const spec of file.imports) {
    if (missing.length >= MAX_GAPS_PER_FILE) break;
    // A Go import names a whole package: follow its file that shares the task's words, if any.
    const targets = resolveImport(file.path, spec, file.language, files).filter((t) => !pool.has(t));
    const isOnTopic = (path: string): boolean => tokenize(path).some((t) => keywords.has(t));
    const target = targets.find(isOnTopic) ?? targets[0];
    if (!target) continue;
    const onTopic = isOnTopic(target);
    // The best file's own local imports are worth following even when off-topic (few of them).
    if (onTopic || (isTop && followed < 3)) {
      missing.push(`import:${target}`);
      followed++;
    }
  }
  return missing;
}

function isDefinedSomewhere(name: string, pool: ReadonlyMap<string, Candidate>, allFacts: ReadonlyMap<string, FileFacts>): boolean {
  for (const facts of allFacts.values()) if (facts.defs.some((d) => d.name === name)) return true;
  for (const candidate of pool.values()) {
    if (!candidate.symbols.includes(name) || !mayDefine(candidate.path)) continue;
    if (candidate.hits.some((h) => h.text.includes(name) && isDefinitionLine(h.text, name))) return true;
  }
  return false;
}
