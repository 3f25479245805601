import { blankIssueComments } from '../core/issue-comments.js';
import { redactSecrets } from '../core/redact.js';

/**
 * A task as a prompt carries it, its secrets masked: issue-template comments (`<!-- … -->`) and trailing blanks out,
 * runs of blank lines collapsed, then cut at `chars` (its head says what it is about). Every role
 * sends the task with every call, so this is where a long bug report costs the most.
 */
export function clipTask(task: string, chars: number): string {
  // written by a person: `password=hunter2` there is a value (the guard reads prompts as code)
  const text = blankIssueComments(redactSecrets(task, { prose: true }))
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text.length <= chars ? text : `${text.slice(0, chars).trimEnd()}\n[… cut]`;
}
