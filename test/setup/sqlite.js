process.env.SVC_TEST_DB = 'sqlite';
