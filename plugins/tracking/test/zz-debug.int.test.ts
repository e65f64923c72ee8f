import { createTestKernel } from '../../../test/helpers/test-kernel';
import { pageview, track } from './helpers';
it('debug', async () => {
  const tk = await createTestKernel({ plugins: ['tracking'] });
  const res = await track(tk, pageview('https://shop.example/a', 'v1'));
  console.log(res.status, res.body, JSON.stringify(tk.logs.filter((l) => (l.level as number) >= 40), null, 1).slice(0, 3000));
  await tk.close();
});
