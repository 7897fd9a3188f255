WITH a (x, y) AS (SELECT 1, 2), b AS (SELECT * FROM a) SELECT * FROM b;
