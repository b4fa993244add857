import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { buildFaqIndex, FaqFileSchema, type FaqFile, type FaqIndex } from './core/faq.js';
import { OfficeSchema, type Office } from './core/office.js';
import { RateTableSchema, type RateTable } from './core/quote.js';

/** The three synthetic data files an office runs on, validated by their schemas at load. */
export interface OfficeData {
  readonly office: Office;
  readonly faq: FaqFile;
  readonly faqIndex: FaqIndex;
  readonly rates: RateTable;
}

export class DataError extends Error {
  override readonly name = 'DataError';
}

async function loadJson<T>(dir: string, file: string, schema: z.ZodType<T>): Promise<T> {
  const path = join(dir, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new DataError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DataError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new DataError(`${file}: ${issues.join('; ')}`);
  }
  return parsed.data;
}

export async function loadOfficeData(dir: string): Promise<OfficeData> {
  const [office, faq, rates] = await Promise.all([
    loadJson(dir, 'office.json', OfficeSchema),
    loadJson(dir, 'faq.json', FaqFileSchema),
    loadJson(dir, 'rate_table.json', RateTableSchema),
  ]);
  return { office, faq, faqIndex: buildFaqIndex(faq), rates };
}
