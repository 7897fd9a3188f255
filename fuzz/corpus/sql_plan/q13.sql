SELECT g.x, f[0], h['k'], explode(f) FROM t1
