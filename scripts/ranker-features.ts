import { KIND_FACTOR, type Features } from '../src/evaluate/offline/features.js';

/** What the ranker sees of one candidate: its features and the parts `rawScores` computed. */
export interface RankerInput {
  features: Features;
  definitions: number;
  neighbour: number;
  copy: boolean;
}

export const FEATURE_NAMES = ['lexical', 'definitions', 'literal', 'mention', 'neighbour', 'coverage', 'logLexical', 'test', 'doc', 'example', 'config', 'tooling', 'data', 'generated'] as const;

/** The feature vector of one candidate, in the order of FEATURE_NAMES. Evidence is demoted by file kind as in `combineFeatures`. */
export function featureVector(input: RankerInput): number[] {
  const f = input.features;
  const kind = KIND_FACTOR[f.kind];
  const scale = input.copy ? 0.1 : 1;
  const x = [
    kind * f.lexical,
    kind * input.definitions,
    kind * Math.min(f.literal, 2),
    f.mention,
    input.neighbour,
    f.coverage,
    kind * Math.log1p(f.lexical),
    f.kind === 'test' ? 1 : 0,
    f.kind === 'doc' ? 1 : 0,
    f.kind === 'example' ? 1 : 0,
    f.kind === 'config' ? 1 : 0,
    f.kind === 'tooling' ? 1 : 0,
    f.kind === 'data' ? 1 : 0,
    f.kind === 'generated' ? 1 : 0,
  ];
  return x.map((v, i) => (i < 7 ? v * scale : v));
}
