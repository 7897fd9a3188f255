SELECT * FROM range(10) r, read_parquet('x/*.parquet', union_by_name => true) p, read_parquet('y', union_by_name = true), parquet_metadata('f');
