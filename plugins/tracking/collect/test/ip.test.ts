import { isPublicIp, normaliseIp, resolveVisitorIp } from '../ip';

describe('visitor addresses (tracking.md §7)', () => {
  it('gives plain and IPv4-mapped addresses as canonical IPv4, and refuses what is not an address', () => {
    const cases: Array<[string, string | null]> = [
      ['8.8.8.8', '8.8.8.8'],
      [' 8.8.4.4 ', '8.8.4.4'],
      ['::ffff:127.0.0.1', '127.0.0.1'],
      ['::FFFF:81.2.69.142', '81.2.69.142'],
      ['[::ffff:10.0.0.1]', '10.0.0.1'],
      ['::ffff:0a00:0001', '10.0.0.1'],
      ['198.51.100.7:443', '198.51.100.7'],
      ['0.0.0.0', '0.0.0.0'],
      ['255.255.255.255', '255.255.255.255'],
      ['2001:4860:4860::8888', '2001:4860:4860::8888'],
      ['[2001:db8::1]', '2001:db8::1'],
      ['256.1.1.1', null],
      ['::ffff:1.2.3.256', null],
      ['01.2.3.4', null],
      ['1.2.3', null],
      ['0x7f.0.0.1', null],
      ['16909060', null],
      ['1.2.3.4.5', null],
      ['1..2.3', null],
      ['1.2.3.', null],
      ['.1.2.3', null],
      ['1.2.3.1000', null],
      ['::ffff:1.2.3', null],
      ['junk', null],
      ['', null],
    ];
    for (const [input, expected] of cases) expect([input, normaliseIp(input)]).toEqual([input, expected]);
  });

  it('tells public addresses from private, loopback and reserved ones', () => {
    for (const ip of ['8.8.8.8', '81.2.69.142', '2001:4860:4860::8888']) expect([ip, isPublicIp(ip)]).toEqual([ip, true]);
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.5', '100.64.0.1', '169.254.1.1', '198.51.100.7', '0.0.0.0', '::1', 'fe80::1', 'junk']) {
      expect([ip, isPublicIp(ip)]).toEqual([ip, false]);
    }
  });

  it('takes the first public address in header order, else the first valid one, else the socket', () => {
    expect(resolveVisitorIp({ 'x-forwarded-for': '10.0.0.1, 8.8.4.4, 1.1.1.1' }, '::ffff:127.0.0.1')).toBe('8.8.4.4');
    expect(resolveVisitorIp({ 'x-forwarded-for': '10.0.0.1', 'x-real-ip': '192.168.0.2' }, '::ffff:127.0.0.1')).toBe('10.0.0.1');
    expect(resolveVisitorIp({ 'x-forwarded-for': '10.0.0.1' }, '::ffff:81.2.69.142')).toBe('81.2.69.142');
    expect(resolveVisitorIp({ 'x-forwarded-for': 'junk' }, '::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(resolveVisitorIp({}, undefined)).toBe('');
  });
});
