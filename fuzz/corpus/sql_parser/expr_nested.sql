SELECT [1, 2], {'a': 1, 'b': 'x'}, array(1, 2), struct(1, 2), named_struct('a', 1), map('k', 'v'), a[1].f, (s).f, EXTRACT(YEAR FROM d);
