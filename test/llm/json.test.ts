/** A model's reply read leniently: the JSON object the schema wants, wherever the reply put it. */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/llm/json.js';

const schema = z.object({ scores: z.array(z.object({ path: z.string(), relevance: z.number() })) });
const answer = { scores: [{ path: 'src/a.ts', relevance: 0.9 }] };
const json = JSON.stringify(answer);

describe('parseReply', () => {
  it.each([
    ['alone', json],
    ['in a fence', `Here you go:\n\`\`\`json\n${json}\n\`\`\``],
    ['in a sentence', `The scores are ${json}.`],
    // the first `{` to the last `}` spans the prose's braces too
    ['followed by prose holding a brace', `${json}\nHope this helps! Replace {x} with your path.`],
    ['after a reasoning model\'s draft', `<think>First draft: {"scores": [{"path": "src/b.ts"}]} then {not json}</think>\n${json}`],
    ['with braces and quotes inside its strings', `He said "{" once. ${JSON.stringify({ scores: [{ path: 'src/{a}"b.ts', relevance: 0.5 }] })} and "}" after`],
  ])('finds the object %s', (_, text) => {
    const read = parseReply(text, schema);
    expect(read.ok).toBe(true);
    expect(read.ok && read.value.scores[0]!.relevance).toBeGreaterThan(0);
  });

  it('still names the problem when no object in the reply fits', () => {
    expect(parseReply('{"scores": [', schema)).toMatchObject({ ok: false, problem: expect.stringMatching(/^the reply is not valid JSON/) });
    expect(parseReply('{"nope": 1} and {"other": 2}', schema)).toMatchObject({ ok: false, problem: expect.stringMatching(/^the reply does not match the schema at scores/) });
    expect(parseReply('no json here', schema)).toEqual({ ok: false, problem: 'the reply holds no JSON object' });
  });

  it('tries a bounded number of objects in a reply of thousands', () => {
    const text = `${'{x} '.repeat(50_000)}${json}`;
    const started = performance.now();
    expect(parseReply(text, schema).ok).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
