SELECT t1.a, t2.b FROM t1 JOIN t2 ON t1.a = t2.a LEFT JOIN t3 ON t3.a = t2.k WHERE t3.v IS NULL
