SELECT a, b + 1 AS c, t.* FROM t WHERE a > 1 AND NOT b = 2 OR c IS NOT NULL;
