import type { TestDatabase } from '../../helpers/test-db';
import type { GaleraCluster, NodeNumber } from '../galera-cluster';

/** A fresh database on the cluster, reached through `order` (for createTestKernel and app nodes). */
export async function clusterDatabase(cluster: GaleraCluster, ...order: NodeNumber[]): Promise<TestDatabase & { name: string }> {
  const name = await cluster.createDatabase();
  return {
    name,
    url: cluster.url(name, ...order),
    kind: 'mysql',
    drop: async () => void (await cluster.query(1, `DROP DATABASE IF EXISTS \`${name}\``)),
  };
}
