import { createReport, logs } from '../../../plugins/reports/test/support/helpers';
import { type ReportsTestKernel, startReportsKernel } from '../../../plugins/reports/test/support/reports-kernel';
import { SVC_BIN, type ScriptProcess, type ScriptRun, startScript } from '../../helpers/dist';
import { within } from '../../helpers/wait';
import type { GaleraCluster } from '../galera-cluster';
import { clusterDatabase } from './cluster-database';

const RECIPIENTS = Array.from({ length: 25 }, (_, i) => `reader${i + 1}@example.com`);

/** A scheduled report evaluated and sent by two app processes on two cluster nodes, one of them killed mid-batch. */
export function reportTests(cluster: () => GaleraCluster): void {
  it('mail each of 25 recipients exactly once when two app nodes run the schedule at once, even when one is killed mid-batch', async () => {
    const c = cluster();
    const database = await clusterDatabase(c, 3);
    let k: ReportsTestKernel | undefined;
    try {
      k = await startReportsKernel({ now: '2026-03-02T08:30:00Z', database });
      const id = await createReport(k, { name: 'Cluster digest', frequency: 'daily', sendTime: '09:00', recipients: RECIPIENTS });
      const env = (node: 1 | 2) => ({
        SVC_DATABASE_URL: c.url(database.name, node),
        SVC_DATA_DIR: k!.tk.dataDir,
        SVC_BASE_URL: k!.tk.url,
        SVC_LICENSE: 'creator',
        SVC_PLUGINS: 'tracking,reports',
        SVC_TIMEZONE: 'UTC',
        SVC_SMTP_URL: k!.smtp.url,
        SVC_DNS_SERVERS: k!.dns.server,
      });
      const cron = (node: 1 | 2, now: string, ...args: string[]) => startScript(SVC_BIN, ['cron', 'run', '--now', now, ...args], { env: env(node), timeout: 90_000 });
      const both = async (now: string, ...args: string[]): Promise<ScriptRun[]> => {
        const runs = await within(Promise.all([cron(1, now, ...args).done, cron(2, now, ...args).done]), 90_000, `both nodes at ${now}`);
        for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
        return runs;
      };

      // Both nodes evaluate the schedule at once: one queue, one first batch.
      await both('2026-03-02T09:00:00Z', '--hook', 'svc_every_hour');
      expect((await logs(k)).filter((l) => l.report_id === id)).toHaveLength(1);
      expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toHaveLength(1);

      // Both run the first batch at once; the one sending it is killed at its fourth mail.
      const stalled = k.smtp.stallAfter(3);
      const runners: ScriptProcess[] = [cron(1, '2026-03-02T09:05:00Z'), cron(2, '2026-03-02T09:05:00Z')];
      await within(stalled, 60_000, 'the fourth mail of the first batch');
      const idle = await within(Promise.race(runners.map((r, i) => r.done.then(() => i))), 60_000, 'the node without a batch to finish');
      const sender = runners[1 - idle]!;
      sender.child.kill('SIGKILL');
      expect((await within(sender.done, 10_000, 'the killed node to exit')).code).toBeNull();
      expect(k.smtp.received).toHaveLength(3);

      // Past the leases both run what is due: the rest of batch 1 and batch 2, then batch 3.
      await both('2026-03-02T09:21:00Z');
      await both('2026-03-02T09:27:00Z');

      const mailed = k.smtp.received.map((m) => m.to);
      expect(mailed.every((to) => to.length === 1)).toBe(true);
      expect(mailed.flat().sort()).toEqual([...RECIPIENTS].sort());
      const [queue] = (await logs(k)).filter((l) => l.report_id === id);
      expect(queue).toMatchObject({ status: 'sending_successful', message: 'Sent to all 25 recipients.' });
      expect(queue!.batches.map((b) => b.status)).toEqual(['sending_successful', 'sending_successful', 'sending_successful']);
      expect(await k.tk.kernel.scheduler.pending('svc_send_email_batch')).toEqual([]);
    } finally {
      await k?.close();
      await database.drop();
    }
  }, 240_000);
}
