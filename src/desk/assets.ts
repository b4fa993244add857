import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { DESK_SCRIPT } from './assets/desk-script.js';
import { DESK_STYLE } from './assets/desk-style.js';

const version = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

const ASSETS = {
  'desk.js': { body: DESK_SCRIPT, type: 'text/javascript; charset=utf-8', version: version(DESK_SCRIPT) },
  'desk.css': { body: DESK_STYLE, type: 'text/css; charset=utf-8', version: version(DESK_STYLE) },
} as const;

/** Asset URLs carry a hash of the content, so a new release is fetched at once and the rest cached. */
export const SCRIPT_URL = `/desk/assets/desk.js?v=${ASSETS['desk.js'].version}`;
export const STYLE_URL = `/desk/assets/desk.css?v=${ASSETS['desk.css'].version}`;

/** The desk's script and stylesheet, from the desk's own origin (its pages allow nothing else). */
export function assetRoutes(): Hono {
  const routes = new Hono();
  routes.get('/:name', (c) => {
    const asset = ASSETS[c.req.param('name') as keyof typeof ASSETS] as
      (typeof ASSETS)[keyof typeof ASSETS] | undefined;
    if (!asset) return c.json({ error: 'not_found' }, 404);
    const current = c.req.query('v') === asset.version;
    return c.body(asset.body, 200, {
      'content-type': asset.type,
      'cache-control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  });
  return routes;
}
