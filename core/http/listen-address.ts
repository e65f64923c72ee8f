import type { AddressInfo } from 'node:net';
import os from 'node:os';

/** Where the server answers, as the operator can reach it. */
export interface ListeningAddress {
  /** One address to call from this machine: loopback when every interface listens. */
  url: string;
  /** Every address of this machine that answers (loopback first). */
  urls: string[];
  /** For the start-up line: `all interfaces` or the bound address. */
  scope: string;
  port: number;
}

const hostPart = (address: string) => (address.includes(':') ? `[${address}]` : address);

/** The machine's own IPv4 addresses, not counting loopback. */
function externalIPv4(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((i): i is os.NetworkInterfaceInfo => Boolean(i) && i!.family === 'IPv4' && !i!.internal)
    .map((i) => i.address);
}

/** What `server.address()` means for a person: an unspecified address listens on loopback and every interface. */
export function describeListening(address: AddressInfo, basePath: string): ListeningAddress {
  const everywhere = address.address === '::' || address.address === '0.0.0.0';
  const hosts = everywhere ? ['127.0.0.1', ...externalIPv4()] : [address.address];
  const urls = hosts.map((h) => `http://${hostPart(h)}:${address.port}${basePath}`);
  return { url: urls[0]!, urls, scope: everywhere ? 'all interfaces' : address.address, port: address.port };
}
