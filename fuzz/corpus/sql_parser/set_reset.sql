SET shoal.txn.appId = 'abc'; SET x = 1; SET y = -1.5; SET z = true; SET w = zstd; RESET x; RESET;
