SELECT t1.a FROM t1 WHERE t1.a = (SELECT min(a) FROM t3 WHERE t3.a > t1.a)
