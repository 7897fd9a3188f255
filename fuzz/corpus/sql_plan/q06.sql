SELECT a, (SELECT max(b) FROM t2 WHERE t2.a = t1.a) AS m FROM t1
