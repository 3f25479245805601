import { describe, expect, it } from 'vitest';
import { clipTask } from '../../src/llm/task.js';

describe('clipTask', () => {
  it('drops issue-template comments and blank-line runs before cutting', () => {
    const task = 'Set-Cookie is not an array\n\n<!-- Please read the instructions\nbefore submitting -->\n\n\n\nSteps:   \n1. get';
    expect(clipTask(task, 1000)).toBe('Set-Cookie is not an array\n\nSteps:\n1. get');
  });

  it('keeps the rest of a task after an unclosed `<!--`, and a comment the reporter wrote as code', () => {
    // the model used to get nothing past the opener
    expect(clipTask('The sanitizer stops at <!--\nand drops the rest of the page', 1000)).toBe('The sanitizer stops at <!--\nand drops the rest of the page');
    expect(clipTask('Keeps `<!-- x -->` but <!-- hidden --> drops this', 1000)).toBe('Keeps `<!-- x -->` but                 drops this');
  });

  it('cuts a long task at the limit and says so', () => {
    expect(clipTask(`head ${'x'.repeat(50)}`, 10)).toBe('head xxxxx\n[… cut]');
    expect(clipTask('short', 10)).toBe('short');
  });
});
