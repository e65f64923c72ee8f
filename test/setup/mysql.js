process.env.SVC_TEST_DB = 'mysql';
