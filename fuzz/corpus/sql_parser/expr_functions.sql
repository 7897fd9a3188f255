SELECT count(DISTINCT x), sum(y), coalesce(a, b), left(s, 2), f(k => 1);
