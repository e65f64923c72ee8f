import { ManualClock } from '../../../core';
import { type TestKernel, createTestKernel } from '../../../test/helpers/test-kernel';
import { CHROME, IPHONE, beacon, pageview, rows, track } from './helpers';

const START = Date.parse('2026-03-02T10:00:00Z') / 1000;

describe('screen class and OS version of a session', () => {
  let tk: TestKernel;
  beforeAll(async () => {
    tk = await createTestKernel({ plugins: ['tracking'], clock: new ManualClock(START * 1000) });
  });
  afterAll(() => tk.close());

  const sessionOf = async (uid: string) => {
    const [stat] = await rows(tk, 'statistics', 'uid = ?', [uid]);
    const [session] = await rows<{ screen: string; platform_version_id: number }>(tk, 'sessions', 'ID = ?', [stat!.session_id]);
    const [version] = await rows<{ name: string }>(tk, 'platform_versions', 'ID = ?', [session!.platform_version_id]);
    return { screen: session!.screen, os: version?.name ?? '' };
  };

  it('keeps the screen class sent through the REST route and the OS version of the agent', async () => {
    expect((await track(tk, pageview('https://shop.example/', 'rest1', { screen: 'tablet', user_agent: CHROME }))).status).toBe(200);
    expect(await sessionOf('rest1')).toEqual({ screen: 'tablet', os: 'Windows 10' });
  });

  it('keeps the screen class sent by beacon', async () => {
    expect((await beacon(tk, JSON.stringify(pageview('https://shop.example/', 'beacon1', { screen: 'mobile', user_agent: IPHONE })))).status).toBeLessThan(300);
    expect(await sessionOf('beacon1')).toEqual({ screen: 'mobile', os: 'iOS 17.0' });
  });

  it('stores no class for a payload without the field or with an unknown one', async () => {
    await track(tk, pageview('https://shop.example/', 'none1'));
    await track(tk, pageview('https://shop.example/', 'junk1', { screen: '<b>huge</b>' }));
    expect((await sessionOf('none1')).screen).toBe('');
    expect((await sessionOf('junk1')).screen).toBe('');
  });
});
