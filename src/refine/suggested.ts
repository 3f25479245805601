/** What a model suggests searching (globs, directories), checked before it is searched or shown: loaded by the offline loop too, so kept light. */
import { globHazard } from '../core/glob-hazard.js';

/** Root-relative globs only: nothing absolute, nothing climbing out of the root, no control character, short, with few wildcards (`globHazard`). */
export function isSafeGlob(pattern: string): boolean {
  return pattern.length > 0 && pattern.length <= MAX_SUGGESTED_CHARS && !pattern.startsWith('/') && !pattern.includes('..') && !CONTROL.test(pattern) && globHazard(pattern) === undefined;
}

/** A directory a model names: root-relative, no `..` segment anywhere, no control character, short. */
export function isSafeDir(dir: string): boolean {
  return dir !== '' && dir.length <= MAX_SUGGESTED_CHARS && !dir.split('/').includes('..') && !CONTROL.test(dir);
}

/** Characters of a glob or directory a model suggests at most; focus areas a reply adds at most. */
const MAX_SUGGESTED_CHARS = 120;
export const MAX_FOCUS_AREAS = 8;
const CONTROL = /[\x00-\x1f\x7f]/;
