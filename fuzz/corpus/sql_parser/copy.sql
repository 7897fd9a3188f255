COPY (SELECT * FROM t) TO 'f.parquet' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000); COPY t TO 'x.parquet';
