import { splitDatabaseHosts } from '../hosts';

describe('a database URL listing several servers', () => {
  it('gives the servers in order, port 3306 by default, and the URL of the first', () => {
    expect(splitDatabaseHosts('mysql://svc:s3cret@db1:3307,db2,[fd00::3]:3308/analytics?charset=utf8mb4')).toEqual({
      hosts: [
        { host: 'db1', port: 3307 },
        { host: 'db2', port: 3306 },
        { host: 'fd00::3', port: 3308 },
      ],
      url: 'mysql://svc:s3cret@db1:3307/analytics?charset=utf8mb4',
    });
  });

  it('leaves a single server as it was, with its port spelled out', () => {
    expect(splitDatabaseHosts('mariadb://root@127.0.0.1/test')).toEqual({ hosts: [{ host: '127.0.0.1', port: 3306 }], url: 'mariadb://root@127.0.0.1:3306/test' });
  });

  it.each([
    ['mysql:///svc', '"" is not a host or host:port'],
    ['mysql://u@db1,/svc', '"" is not a host or host:port'],
    ['mysql://u@db1:0/svc', '"db1:0" has no valid port'],
    ['mysql://u@db 1/svc', '"db 1" is not a host or host:port'],
    ['mysql://u@[zz]:3306/svc', '"[zz]:3306" is not a host or host:port'],
    ['postgres://u@db/svc', 'expected mysql://user:password@host:port[,host:port...]/database'],
  ])('refuses %s', (url, message) => {
    expect(() => splitDatabaseHosts(url)).toThrow(message);
  });
});
