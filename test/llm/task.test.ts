import { describe, expect, it } from 'vitest';
import { clipTask } from '../../src/llm/task.js';

describe('clipTask', () => {
  it('drops issue-template comments and blank-line runs before cutting', () => {
    const task = 'Set-Cookie is not an array\n\n<!-- Please read the instructions\nbefore submitting -->\n\n\n\nSteps:   \n1. get';
    expect(clipTask(task, 1000)).toBe('Set-Cookie is not an array\n\nSteps:\n1. get');
  });

  it('cuts a long task at the limit and says so', () => {
    expect(clipTask(`head ${'x'.repeat(50)}`, 10)).toBe('head xxxxx\n[… cut]');
    expect(clipTask('short', 10)).toBe('short');
  });
});
