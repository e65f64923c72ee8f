import { classify, referrerDomain } from '../services/channels';
import { parseUtm } from '../services/utm';

describe('referrer channels', () => {
  it.each([
    ['', 'direct'],
    ['https://www.google.com/', 'search'],
    ['https://www.google.co.uk/search?q=x', 'search'],
    ['https://news.google.de/', 'search'],
    ['https://mail.google.com/mail/u/0/', 'email'],
    ['https://outlook.live.com/', 'email'],
    ['https://l.facebook.com/l.php?u=x', 'social'],
    ['https://t.co/abc', 'social'],
    ['https://news.ycombinator.com/item?id=1', 'social'],
    ['https://duckduckgo.com/', 'search'],
    ['https://search.brave.com/search?q=a', 'search'],
    ['https://example.org/blog', 'other'],
    ['https://notgoogle.example/', 'other'],
    ['not a url at all %%%', 'other'],
  ])('classifies %s as %s', (referrer, channel) => {
    expect(classify(referrerDomain(referrer))).toBe(channel);
  });

  it('reduces referrers to their lower-case domain without www', () => {
    expect(referrerDomain('https://WWW.Example.COM/path?q=1')).toBe('example.com');
    expect(referrerDomain('android-app://com.google.android.gm/')).toBe('com.google.android.gm');
    expect(referrerDomain('')).toBe('');
    expect(referrerDomain('http://[::1')).toBe('http://[::1');
  });
});

describe('UTM parsing', () => {
  it('reads the five fields, case-insensitively, first value winning', () => {
    expect(parseUtm('UTM_Source=News&utm_medium=email&utm_campaign=spring%20sale&utm_term=a+b&utm_content=hero&utm_source=other')).toEqual({
      source: 'News', medium: 'email', campaign: 'spring sale', term: 'a b', content: 'hero',
    });
    expect(parseUtm('?utm_campaign=launch')).toEqual({ source: '', medium: '', campaign: 'launch', term: '', content: '' });
  });

  it('ignores query strings without UTM values and cleans hostile ones', () => {
    expect(parseUtm('')).toBeNull();
    expect(parseUtm('page=2&ref=x')).toBeNull();
    expect(parseUtm('utm_source=&utm_medium=')).toBeNull();
    expect(parseUtm('utm_source=%00%1Fbad%7F')).toEqual({ source: 'bad', medium: '', campaign: '', term: '', content: '' });
    expect(parseUtm(`utm_source=${'x'.repeat(400)}`)!.source).toHaveLength(255);
    expect(parseUtm('utm_source=%E0%A4%A')!.source).toBe('\uFFFD%A');
  });
});
