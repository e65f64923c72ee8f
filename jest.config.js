// Test tiers by file name: *.test.ts unit, *.int.test.ts integration (real HTTP,
// real database), *.browser.test.ts browser (Debian's Chromium), *.cluster.test.ts
// on a three-node Galera cluster the suite starts itself. Integration tests run on
// SQLite, and again on MariaDB/MySQL when SVC_TEST_MYSQL_URL is set.
'use strict';

const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  rootDir: __dirname,
  roots: ['<rootDir>/core', '<rootDir>/plugins', '<rootDir>/test', '<rootDir>/examples'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

const projects = [
  {
    ...base,
    displayName: 'unit',
    testMatch: ['**/*.test.ts'],
    testPathIgnorePatterns: [...base.testPathIgnorePatterns, '\\.int\\.test\\.ts$', '\\.browser\\.test\\.ts$', '\\.cluster\\.test\\.ts$'],
  },
  { ...base, displayName: 'int:sqlite', testMatch: ['**/*.int.test.ts'], setupFiles: ['<rootDir>/test/setup/sqlite.js'] },
  { ...base, displayName: 'browser', testMatch: ['**/*.browser.test.ts'], setupFiles: ['<rootDir>/test/setup/sqlite.js'] },
  { ...base, displayName: 'cluster', testMatch: ['**/*.cluster.test.ts'], setupFiles: ['<rootDir>/test/setup/mysql.js'] },
];
if (process.env.SVC_TEST_MYSQL_URL) {
  projects.push({ ...base, displayName: 'int:mysql', testMatch: ['**/*.int.test.ts'], setupFiles: ['<rootDir>/test/setup/mysql.js'] });
}

module.exports = { projects, testTimeout: 30000 };
