#!/usr/bin/env node
// Runs TPC-H query files in DuckDB over the generator's Parquet files (bench/tpch), for
// bench/tpch/run.sh and the TPC-H answer test: one view per table over <data>/<table>/*.parquet,
// then each query file's statements in order; the result of the file's last SELECT is written
// as text (see "Output"), and its time printed.
//
// Usage: tpch.mjs --data DIR [--threads N] [--repeat R] [--out DIR] q01.sql [q02.sql ...]
//   --repeat R  after one untimed warm-up run, time R runs of the whole file; print the median
//   --out DIR   write <DIR>/<query>.duckdb.txt per query (its result)
// Prints one line per query to stdout: "<query> median_ms=<x> min_ms=<y>" or
// "<query> error=<DuckDB's message>".
//
// Output: line 1 {"columns":[...],"types":[...]}; then one JSON array per row, every value as
// DuckDB's text form (decimals exact, doubles as JavaScript's shortest round-trip form) or null.
//
// Dialect: DuckDB does not parse the interval field precision of the specification's Q1
// (`interval '90' day (3)`); it is dropped here (`interval '90' day`), which means the same.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
let threads = null, repeat = 0, data = null, out = null, duckdbDir = null;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--threads') threads = args[++i];
  else if (args[i] === '--repeat') repeat = parseInt(args[++i], 10);
  else if (args[i] === '--data') data = args[++i];
  else if (args[i] === '--out') out = args[++i];
  else if (args[i] === '--duckdb-dir') duckdbDir = args[++i];
  else files.push(args[i]);
}
if (!data || files.length === 0) {
  console.error('usage: tpch.mjs --data DIR [--threads N] [--repeat R] [--out DIR] [--duckdb-dir DIR] q.sql ...');
  process.exit(2);
}
// The npm install of scripts/install-deps.sh (build/duckdb) may sit elsewhere than this script.
const api = duckdbDir
  ? await import(pathToFileURL(`${duckdbDir}/node_modules/@duckdb/node-api/lib/index.js`).href)
  : await import('@duckdb/node-api');
const { DuckDBInstance } = api.default && !api.DuckDBInstance ? api.default : api;

const tables = ['part', 'supplier', 'partsupp', 'customer', 'orders', 'lineitem', 'nation', 'region'];
const inst = await DuckDBInstance.create(':memory:', threads ? { threads: String(threads) } : {});
const con = await inst.connect();
for (const t of tables) await con.run(`create view ${t} as select * from read_parquet('${data}/${t}/*.parquet')`);

const text = (v) => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : (Number.isNaN(v) ? 'NaN' : (v > 0 ? 'Infinity' : '-Infinity'));
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return v.toString();
};

// The statements of a file, split at ';' that ends a line (the query files keep ';' out of strings).
const statements = (sql) => sql.replace(/interval\s+'([^']*)'\s+day\s*\(\s*\d+\s*\)/gi, "interval '$1' day")
  .split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter((s) => s.length > 0);
const isQuery = (s) => /^(select|with|values|from)\b/i.test(s);

async function runFile(stmts) {
  let last = null;
  for (const s of stmts) {
    if (isQuery(s)) last = await con.runAndReadAll(s);
    else await con.run(s);
  }
  return last;
}

for (const f of files) {
  const name = basename(f).replace(/\.sql$/, '');
  const stmts = statements(readFileSync(f, 'utf8'));
  try {
    let result = await runFile(stmts);
    const times = [];
    for (let r = 0; r < repeat; r++) {
      const t0 = process.hrtime.bigint();
      result = await runFile(stmts);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    if (out) {
      const lines = [];
      if (result) {
        const types = result.columnTypes().map((t) => t.toString());
        lines.push(JSON.stringify({ columns: result.columnNames(), types }));
        for (const row of result.getRows()) lines.push(JSON.stringify(row.map(text)));
      } else {
        lines.push(JSON.stringify({ columns: [], types: [] }));
      }
      writeFileSync(`${out}/${name}.duckdb.txt`, lines.join('\n') + '\n');
    }
    times.sort((a, b) => a - b);
    const med = times.length ? times[Math.floor(times.length / 2)] : 0;
    console.log(`${name} median_ms=${med.toFixed(3)} min_ms=${(times[0] ?? 0).toFixed(3)}`);
  } catch (e) {
    console.log(`${name} error=${String(e.message).split('\n')[0]}`);
  }
}
