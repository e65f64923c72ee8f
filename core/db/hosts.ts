/** One server of a MariaDB/MySQL cluster as `SVC_DATABASE_URL` lists it. */
export interface DatabaseHost {
  host: string;
  port: number;
}

const AUTHORITY = /^((?:mysql|mariadb):\/\/)(?:([^/?#]*)@)?([^/?#@]*)(.*)$/s;
const NAME = /^[A-Za-z0-9._-]+$/;

function parseHost(raw: string): DatabaseHost {
  const v6 = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(raw);
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(raw);
  const [, host, port] = v6 ?? plain ?? [];
  if (!host || (!v6 && !NAME.test(host))) throw new Error(`"${raw}" is not a host or host:port`);
  const number = port === undefined ? 3306 : Number(port);
  if (!Number.isInteger(number) || number < 1 || number > 65535) throw new Error(`"${raw}" has no valid port`);
  return { host, port: number };
}

/**
 * Splits a MariaDB/MySQL URL whose host part may list several servers
 * (`mysql://user:pass@db1:3306,db2:3306,db3/name`, port 3306 by default)
 * into the servers, in order, and the same URL naming only the first.
 * Throws an Error naming the bad part.
 */
export function splitDatabaseHosts(url: string): { hosts: DatabaseHost[]; url: string } {
  const match = AUTHORITY.exec(url);
  if (!match) throw new Error('expected mysql://user:password@host:port[,host:port...]/database');
  const [, scheme, userinfo, list, rest] = match as unknown as [string, string, string | undefined, string, string];
  const hosts = list.split(',').map((part) => parseHost(part.trim()));
  const first = hosts[0]!;
  const authority = `${first.host.includes(':') ? `[${first.host}]` : first.host}:${first.port}`;
  return { hosts, url: `${scheme}${userinfo !== undefined ? `${userinfo}@` : ''}${authority}${rest}` };
}
