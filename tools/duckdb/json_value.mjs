// DuckDB values as JSON for the oracle scripts (duckq.mjs, duckserve.mjs, expect.mjs):
// BIGINT/HUGEINT as JSON numbers when safe, else strings; NaN and infinities as strings;
// LIST/ARRAY -> JSON array, STRUCT -> object, MAP -> array of {key, value}; other non-JSON types
// (DECIMAL, DATE, TIMESTAMP, ...) -> DuckDB's text form.
export const toJson = (v) => {
  if (typeof v === 'bigint') return (v <= Number.MAX_SAFE_INTEGER && v >= -Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (v === null || typeof v !== 'object') return v;
  const kind = v.constructor ? v.constructor.name : '';
  if (kind === 'DuckDBListValue' || kind === 'DuckDBArrayValue') return v.items.map(toJson);
  if (kind === 'DuckDBStructValue') { const o = {}; for (const [k, x] of Object.entries(v.entries)) o[k] = toJson(x); return o; }
  if (kind === 'DuckDBMapValue') return v.entries.map((e) => ({ key: toJson(e.key), value: toJson(e.value) }));
  return v.toString();
};
