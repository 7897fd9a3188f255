SELECT * FROM t1 a1, t2 a2, t3 a3 WHERE a1.a = a2.a AND a2.k = a3.a AND a3.v = '1'
