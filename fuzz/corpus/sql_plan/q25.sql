SELECT * FROM range(10) r JOIN t3 ON r.id = t3.a
