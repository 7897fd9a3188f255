SELECT a, count(*), sum(e), avg(c), min(d), max(j) FROM t1 GROUP BY a HAVING count(*) > 0
