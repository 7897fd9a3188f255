SELECT d + INTERVAL 1 DAY, date_trunc('month', j), year(d) FROM t1
