SELECT a, b, count(*) FROM t2 GROUP BY GROUPING SETS ((a), (b), ())
