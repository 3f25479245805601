import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/cli/render/md.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { renderPackText } from '../../src/pack/pack.js';
import { createTokenizer } from '../../src/pack/tokens.js';
import { useTempRepos } from '../helpers/make-repo.js';

const makeRepo = useTempRepos();
const tokenizer = createTokenizer();

/** A repository where many files answer the task, so any small budget has to cut. */
function billingRepo(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 6; f++) {
    const lines = [`import { roundCents } from './money';`, ''];
    for (let i = 0; i < 15; i++) {
      lines.push(`export function applyInvoiceDiscount${f}x${i}(invoice: Invoice, percent: number): Invoice {`);
      lines.push(`  const discount = roundCents(invoice.total * percent / 100);`);
      lines.push(`  return { ...invoice, total: invoice.total - discount, discount };`);
      lines.push('}', '');
    }
    files[`src/billing/discount-${f}.ts`] = lines.join('\n');
  }
  files['src/billing/money.ts'] = 'export function roundCents(value: number): number {\n  return Math.round(value * 100) / 100;\n}\n';
  return files;
}

describe('the pack within --budget, end to end', () => {
  it('never exceeds the budget, counted with the real tokenizer on the text md prints; lists what it cut', async () => {
    const repo = makeRepo(billingRepo());
    for (const budget of [100, 250, 600, 1500, 4000]) {
      const result = await retrieve('applyInvoiceDiscount rounds the invoice discount wrongly (roundCents)', { root: repo.root, cache: false, budget, threshold: 0.3, withContent: true });
      const packText = renderPackText(result.files);
      expect(tokenizer.count(packText)).toBe(result.tokens);
      expect(result.tokens).toBeLessThanOrEqual(budget);
      expect(renderMarkdown(result)).toContain(packText);
      if (budget <= 600) {
        expect(result.cut!.length).toBeGreaterThan(0);
        expect(renderMarkdown(result)).toContain('## Cut for the budget');
      }
      if (budget >= 1500) expect(result.files.length).toBeGreaterThan(1);
      for (const file of result.files) for (const region of file.regions) expect(packText).toContain(`${region.start}\t`);
    }
  });
});
