/**
 * The default model of each provider, apart from the files that import the SDKs, so choosing a
 * provider (and naming its model) loads no SDK: that happens on the first call.
 */

/** Small and fast: judging signatures needs no large model. */
export const ANTHROPIC_DEFAULT_MODEL = 'claude-haiku-4-5';

export const OPENAI_DEFAULT_MODEL = 'gpt-4.1-mini';
