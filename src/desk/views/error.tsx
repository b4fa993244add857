import type { FC } from 'hono/jsx';
import type { DeskSession } from '../session.js';
import { Layout, type Chrome } from './layout.js';

export const ErrorPage: FC<{
  chrome: Chrome;
  session?: DeskSession | undefined;
  title: string;
  message: string;
}> = ({ chrome, session, title, message }) => (
  <Layout chrome={chrome} title={title} session={session}>
    <section class="problem" aria-labelledby="problem-title">
      <h1 id="problem-title">{title}</h1>
      <p>{message}</p>
      <p>
        <a href="/desk">Back to the queue</a>
      </p>
    </section>
  </Layout>
);
