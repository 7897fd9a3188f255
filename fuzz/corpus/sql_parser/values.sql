VALUES (1, 'a'), (2, 'b'); SELECT * FROM (VALUES (1), (2)) AS v(x);
