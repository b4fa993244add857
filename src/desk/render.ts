import { html } from 'hono/html';
import type { JSX } from 'hono/jsx/jsx-runtime';

/** A full page: the doctype keeps browsers out of quirks mode; hono/jsx escapes all text. */
export function fullPage(page: JSX.Element) {
  return html`<!DOCTYPE html>${page}`;
}
