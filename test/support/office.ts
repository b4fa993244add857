import { fileURLToPath } from 'node:url';
import { loadOfficeData, type OfficeData } from '../../src/office-data.js';

export const DATA_DIR = fileURLToPath(new URL('../../data/', import.meta.url));

let cached: Promise<OfficeData> | undefined;

/** The bundled synthetic office, loaded once per test file. */
export function bundledOfficeData(): Promise<OfficeData> {
  cached ??= loadOfficeData(DATA_DIR);
  return cached;
}

/** A Monday morning in September 2026, inside the bundled office's hours (America/Chicago). */
export const DEMO_NOW = new Date('2026-09-14T15:00:00Z');
