import { z } from 'zod';
import type { ModelRequest } from '../core/deps.js';

/** What the `evaluate` prompt asks for; every reply is checked against it before use. */
export const evaluateReplySchema = z.strictObject({
  scores: z.array(
    z.strictObject({
      path: z.string().min(1),
      relevance: z.number().min(0).max(1),
      reason: z.string(),
      missing: z.array(z.string()),
    }),
  ),
});

export type EvaluateReply = z.output<typeof evaluateReplySchema>;

/** The same shape as a JSON schema for the APIs (a tool's input schema, a `json_schema` format). */
export const EVALUATE_SCHEMA: ModelRequest['schema'] = {
  name: 'report_scores',
  description: 'Report a relevance score, a one-line reason and what is still missing for every candidate file.',
  json: jsonSchemaOf(evaluateReplySchema),
};

/** zod → JSON schema without the `$schema` line (some servers reject unknown top-level keys). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema) as Record<string, unknown>;
  return json;
}
