import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/** Structured JSON logs on stderr, so stdout stays free for what a command prints for people. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'holddesk' } }, pino.destination(2));
}
