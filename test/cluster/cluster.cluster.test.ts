import { ensureBuilt } from '../helpers/dist';
import { type GaleraCluster, clusterRequired, galeraMissing, startGaleraCluster } from './galera-cluster';
import { failoverTests } from './suites/failover';
import { migrationTests } from './suites/migrations';
import { reportTests } from './suites/reports';
import { sharedStateTests } from './suites/shared-state';
import { transactionTests } from './suites/transactions';

/**
 * svc on a three-node MariaDB Galera cluster started for this file
 * (test/cluster/galera.sh). Without Galera the file is skipped, unless
 * SVC_REQUIRE_CLUSTER=1 (CI) makes it fail.
 */
const missing = galeraMissing();
if (missing && !clusterRequired) process.stderr.write(`cluster tests skipped: ${missing}\n`);
const describeCluster = missing && !clusterRequired ? describe.skip : describe;

describeCluster('svc on a three-node Galera cluster', () => {
  let cluster: GaleraCluster;
  const get = () => cluster;
  beforeAll(async () => {
    if (missing) throw new Error(`SVC_REQUIRE_CLUSTER=1 but ${missing}`);
    ensureBuilt();
    cluster = await startGaleraCluster();
  }, 240_000);
  afterAll(() => cluster?.stop(), 120_000);

  describe('migrations', () => migrationTests(get));
  describe('transactions and claims', () => transactionTests(get));
  describe('failover', () => failoverTests(get));
  describe('reports', () => reportTests(get));
  describe('shared state', () => sharedStateTests(get));
});
