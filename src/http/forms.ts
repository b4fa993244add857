import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';

export type FormFields = Record<string, string | File>;

/**
 * The fields of a submitted form. A body that is not a readable form (wrong content type, broken
 * multipart, invalid encoding) is the client's mistake: 400, not a failure of ours.
 */
export async function readFormBody(c: Context): Promise<FormFields> {
  try {
    return await c.req.parseBody();
  } catch {
    throw new HTTPException(400, {
      res: new Response(JSON.stringify({ error: 'bad_request', message: 'The form could not be read.' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      }),
    });
  }
}
