import autocannon from 'autocannon';
import { CONNECTIONS, type Hit, type Load, Traffic, type Transport } from './traffic';

/** Drives one endpoint for `seconds` at CONNECTIONS, with the visitors spread over `sites` sites, and counts what it accepted. */
export async function drive(url: string, transport: Transport, seconds: number, sites = 1): Promise<{ load: Load; result: autocannon.Result }> {
  const traffic = new Traffic(sites);
  const load: Load = { pageviews: 0, heartbeats: 0, heartbeatSeconds: 0, errors: 0 };
  const setupRequest = (req: autocannon.Request, context: object): autocannon.Request => {
    const hit = traffic.next();
    (context as { hit?: Hit }).hit = hit;
    const body = JSON.stringify(hit.payload);
    return {
      ...req,
      method: 'POST',
      body: transport === 'rest' ? JSON.stringify(body) : body,
      headers: {
        'content-type': transport === 'rest' ? 'application/json' : 'text/plain;charset=UTF-8',
        'x-forwarded-for': hit.visitor.ip,
        'user-agent': hit.visitor.agent,
      },
    };
  };
  const onResponse = (status: number, _body: string, context: object) => {
    const hit = (context as { hit?: Hit }).hit;
    if (hit) traffic.answered(hit, status === 200, load);
  };
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: [{ setupRequest, onResponse }] });
  return { load, result };
}
