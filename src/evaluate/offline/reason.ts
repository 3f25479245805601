import type { Candidate, Query } from '../../core/types.js';
import type { Features } from './features.js';
import { own } from '../../core/records.js';

const MAX_EVIDENCE_LINES = 8;

/** One line a reader can check: what ties this file to the task. */
export function describeEvidence(candidate: Candidate, f: Features): string {
  const parts: string[] = [];
  if (f.mention > 0) parts.push(`named in the task (${candidate.mentions[0]})`);
  else if (candidate.mentions.length > 0) parts.push('imported by a relevant file');
  if (f.defines.length > 0) parts.push(`defines ${f.defines.slice(0, 3).join(', ')}`);
  if (f.literal > 0) parts.push(`contains "${truncate(candidate.literals[0]!, 40)}"`);
  if (f.commit > 0) parts.push(`changed by ${candidate.commits!.map((c) => c.hash.slice(0, 12)).join(', ')}, which the task names`);
  if (f.matched.length > 0) parts.push(`matches ${f.matched.slice(0, 5).join(', ')}`);
  if (f.scope > 0) parts.push("in the title's scope");
  if (f.kind !== 'code') parts.push(f.kind === 'form' ? 'an issue or pull-request form' : `${f.kind} file`);
  return parts.length > 0 ? parts.join('; ') : 'weak lexical match';
}

/** Lines for regions: definitions of named symbols first, then the lines richest in task terms. */
export function pickEvidenceLines(candidate: Candidate, f: Features, plan: Query): number[] {
  const picked = new Set(f.definitionLines.slice(0, MAX_EVIDENCE_LINES));
  const weightOf = (terms: string[]): number => terms.reduce((sum, t) => sum + (own(plan.weights, t) ?? (plan.literals.includes(t) ? 2 : 1)), 0);
  const ranked = [...candidate.hits].sort((a, b) => weightOf(b.terms) - weightOf(a.terms) || a.line - b.line);
  for (const hit of ranked) {
    if (picked.size >= MAX_EVIDENCE_LINES) break;
    picked.add(hit.line);
  }
  return [...picked].sort((a, b) => a - b);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
