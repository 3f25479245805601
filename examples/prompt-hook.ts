/**
 * A preflight hook: gathers context for each new prompt and hands it to the agent. Written for
 * Claude Code's `UserPromptSubmit` hook (JSON on stdin with `prompt` and `cwd`; JSON on stdout
 * whose `additionalContext` goes in front of the model), and usable by any host that runs a
 * command per prompt: with plain text on stdin, or `--text`, it prints the pack as plain text.
 *
 *   echo '{"prompt":"why does verifyEmail accept a@b?","cwd":"."}' | npx tsx examples/prompt-hook.ts
 *
 * It never blocks the prompt: on a short or slash-command prompt, an empty result, a timeout or
 * an error it prints nothing (the error goes to stderr) and exits 0.
 */
import { readFileSync } from 'node:fs';
import { createRetriever, isCtxloopError, type RetrieveResult } from 'ctxloop';

/** Tokens of context added to a prompt: small, because it is paid on every turn. */
const BUDGET = Number(process.env.CTXLOOP_HOOK_BUDGET ?? 1500);
/** The hook must answer quickly: past this, the prompt goes on without context. */
const TIMEOUT_MS = 15_000;

const raw = readFileSync(0, 'utf8');
const input = parseInput(raw);
const plainText = process.argv.includes('--text') || input.json === false;

if (isTask(input.prompt)) {
  // Offline by default: the hook runs on every prompt, and a model would be paid each time.
  const retriever = createRetriever({ root: process.env.CLAUDE_PROJECT_DIR || input.cwd, budget: BUDGET, provider: 'offline', withContent: true });
  try {
    const result = await retriever.retrieve(input.prompt, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (result.files.length > 0) {
      const context = renderContext(result);
      process.stdout.write(plainText ? context : `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } })}\n`);
    }
  } catch (error) {
    process.stderr.write(`ctxloop hook: ${isCtxloopError(error) ? error.message : String(error)}\n`);
  } finally {
    await retriever.close();
  }
}

function parseInput(text: string): { prompt: string; cwd: string; json: boolean } {
  try {
    const value = JSON.parse(text) as { prompt?: unknown; cwd?: unknown };
    if (typeof value.prompt === 'string') return { prompt: value.prompt, cwd: typeof value.cwd === 'string' ? value.cwd : process.cwd(), json: true };
  } catch {
    // Not JSON: the prompt itself, as a host without a hook protocol would pipe it.
  }
  return { prompt: text, cwd: process.cwd(), json: false };
}

/** A slash command or a one-word reply ("yes", "continue") is no task to search for. */
function isTask(prompt: string): boolean {
  const text = prompt.trim();
  return !text.startsWith('/') && text.split(/\s+/).length >= 3;
}

/** The context pack as the agent reads it: each file with its score, reason and region code. */
function renderContext(result: RetrieveResult): string {
  const lines = ['Context gathered by ctxloop for this prompt (files most likely needed, best first):'];
  for (const file of result.files) {
    lines.push('', `## ${file.path} (score ${file.score.toFixed(2)}): ${file.reason}`);
    for (const region of file.regions) {
      lines.push(`lines ${region.start}-${region.end}${region.symbol ? ` (${region.symbol})` : ''}:`);
      if (region.content !== undefined) lines.push('```', region.content, '```');
    }
  }
  if (result.gaps.length > 0) lines.push('', 'Still unknown:', ...result.gaps.map((gap) => `- ${gap}`));
  return `${lines.join('\n')}\n`;
}
