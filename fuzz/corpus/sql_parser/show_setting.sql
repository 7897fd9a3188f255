SHOW memory_limit; SET memory_limit = '1.5GB'; RESET memory_limit; SHOW `tables`; SHOW tables.x; SHOW TABLES
