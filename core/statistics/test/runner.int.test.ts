import { createMemoryLogger } from '../../logger';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { QueryRunner } from '../sql/runner';

describe('statistics statement time limit', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel();
  });
  afterAll(() => tk.close());

  it('is enforced by MariaDB/MySQL and answers a coded 503', async () => {
    const runner = new QueryRunner(tk.kernel.db, createMemoryLogger().logger, 300);
    if (tk.database.kind === 'sqlite') {
      expect(await runner.select('probe', { sql: 'SELECT 1 AS one', params: [] })).toEqual([{ one: 1 }]);
      return;
    }
    const started = Date.now();
    const failure = await runner.select('probe', { sql: 'SELECT SLEEP(3) AS slept', params: [] }).catch((err: unknown) => err);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(failure).toMatchObject({ code: 'svc_statistics_timeout', status: 503, data: { query_id: 'probe' } });
    expect(await runner.select('probe', { sql: 'SELECT ? + 1 AS two', params: [1] })).toEqual([{ two: 2 }]);
  });
});
