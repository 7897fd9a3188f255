#!/usr/bin/env node
// A persistent DuckDB (in-memory) for differential tests: reads one JSON request per line on
// stdin and answers each with one JSON line on stdout, so a test pays node's start-up once.
// Request:  {"sql": "..."}  (one statement; its rows are returned)
// Answer:   {"ok": true, "columns": [...], "types": ["INTEGER", "DECIMAL(38,10)", ...], "rows": [[...], ...]}
//           {"ok": false, "error": "<DuckDB's message>"}
// Values as in duckq.mjs: BIGINT/HUGEINT as JSON numbers when safe, else strings; DECIMAL,
// DATE, TIMESTAMP as strings; NaN and infinities as the strings "NaN", "Infinity", "-Infinity".
// Usage: duckserve.mjs [--threads N]
import { DuckDBInstance } from '@duckdb/node-api';
import { toJson } from './json_value.mjs';
import readline from 'node:readline';

const args = process.argv.slice(2);
const threads = args[0] === '--threads' ? args[1] : null;
const inst = await DuckDBInstance.create(':memory:', threads ? { threads: String(threads) } : {});
const con = await inst.connect();

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let answer;
  try {
    const { sql } = JSON.parse(line);
    const reader = await con.runAndReadAll(sql);
    answer = {
      ok: true,
      columns: reader.columnNames(),
      types: reader.columnTypes().map((t) => t.toString()),
      rows: reader.getRows().map((r) => r.map(toJson)),
    };
  } catch (e) {
    answer = { ok: false, error: String(e && e.message ? e.message : e) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
