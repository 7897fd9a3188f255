#include "table/layout_experiment.h"

#include <ctime>
#include <map>

#include "delta/table_path.h"
#include "parquet/file_reader.h"
#include "scan/delta_scan.h"
#include "table/data_file_writer.h"
#include "table/layout_choice.h"
#include "table/optimize.h"
#include "table/table_creator.h"
#include "txn/transaction.h"

namespace shoal::table {

namespace c = columnar;

namespace {

constexpr int32_t kDay1992 = 8035;  // 1992-01-01 in days since the epoch

double ClockMs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}
double CpuMs() { return ClockMs(CLOCK_PROCESS_CPUTIME_ID); }  // every thread
double WallMs() { return ClockMs(CLOCK_MONOTONIC); }

// Time a table write took: CPU of every thread but the generator's, wall from the first
// generated batch.
struct WriteTime {
  double cpu_ms = 0;
  double wall_ms = 0;
};

enum Col {
  kOrderkey, kPartkey, kSuppkey, kLinenumber, kQuantity, kExtendedprice, kDiscount, kTax, kReturnflag,
  kLinestatus, kShipdate, kCommitdate, kShipmode, kEnv, kSkey, kNote, kComment, kNumCols
};

expr::ExprPtr Col(int i) {
  static const c::Schema s = LineitemSchema();
  const c::Field& f = s.fields[static_cast<size_t>(i)];
  return expr::ColumnRef(i, f.type, f.name, f.nullable);
}

Result<expr::ExprPtr> Cmp(const char* op, int col, c::Value v) { return expr::Call(op, {Col(col), expr::Literal(std::move(v))}); }

Status CommitAdds(std::shared_ptr<io::FileSystem> fs, const std::string& root, std::vector<delta::AddFile> adds) {
  ASSIGN_OR_RETURN(auto table, scan::DeltaTable::Open(fs, root));
  txn::TransactionOptions o;
  o.operation = "WRITE";
  ASSIGN_OR_RETURN(auto t, txn::Transaction::Begin(fs, root, table->snapshot(), o));
  for (auto& a : adds) t->AddFile(std::move(a));
  return t->Commit().status();
}

// Writes the whole data set into the table at `root` with the writer's effective key; returns
// the writer's CPU time on every thread (generation excluded) and the wall time.
Result<WriteTime> WriteData(std::shared_ptr<io::FileSystem> fs, const std::string& root,
                            const LayoutExperimentOptions& o) {
  const double wall0 = WallMs();
  ASSIGN_OR_RETURN(auto table, scan::DeltaTable::Open(fs, root));
  DataFileWriterOptions wo;
  wo.max_row_group_rows = o.max_row_group_rows;
  if (o.sorted_max_row_group_rows) wo.sorted_max_row_group_rows = *o.sorted_max_row_group_rows;
  ASSIGN_OR_RETURN(auto w, DataFileWriter::Make(fs, root, table->snapshot()->metadata(), wo));
  const double cpu0 = CpuMs();
  double gen_cpu = 0;
  for (int64_t pos = 0; pos < o.rows; pos += o.batch_rows) {
    const double g0 = ClockMs(CLOCK_THREAD_CPUTIME_ID);
    c::RecordBatch b = GenerateLineitem(o.variant, pos, std::min(o.batch_rows, o.rows - pos));
    gen_cpu += ClockMs(CLOCK_THREAD_CPUTIME_ID) - g0;
    RETURN_NOT_OK(w->Write(b));
  }
  ASSIGN_OR_RETURN(auto adds, w->Finish());
  // A sorted write's worker sorts while rows are generated: its CPU counts, the generator's not.
  const double cpu = CpuMs() - cpu0 - gen_cpu;
  const double wall = WallMs() - wall0;
  RETURN_NOT_OK(CommitAdds(fs, root, std::move(adds)));
  return WriteTime{cpu, wall};
}

Result<WorkloadMeasure> RunQuery(const scan::DeltaTable& table, const WorkloadQuery& q) {
  scan::DeltaScanOptions so;
  for (int i = 0; i < kNumCols; ++i) so.columns.push_back(i);  // SELECT *
  so.filters = q.filters;
  double t0 = CpuMs();
  ASSIGN_OR_RETURN(auto scan, table.Plan(so));
  auto local = scan->MakeLocal();
  WorkloadMeasure m;
  while (true) {
    c::BatchPtr b;
    uint64_t order = 0;
    ASSIGN_OR_RETURN(bool more, scan->Next(local.get(), &b, &order));
    if (!more) break;
    if (b) m.rows_returned += b->num_rows;
  }
  m.cpu_ms = CpuMs() - t0;
  ScanMetrics sm = scan->metrics();
  m.bytes_read = sm.bytes_read;
  m.row_groups_read = sm.row_groups_read;
  m.pages_read = sm.pages_read;
  return m;
}

Result<std::vector<WorkloadMeasure>> RunWorkload(std::shared_ptr<io::FileSystem> fs, const std::string& root,
                                                 const std::vector<WorkloadQuery>& workload, WorkloadMeasure* total) {
  ASSIGN_OR_RETURN(auto table, scan::DeltaTable::Open(fs, root));
  std::vector<WorkloadMeasure> out;
  *total = WorkloadMeasure();
  for (const auto& q : workload) {
    ASSIGN_OR_RETURN(WorkloadMeasure m, RunQuery(*table, q));
    total->cpu_ms += m.cpu_ms;
    total->bytes_read += m.bytes_read * q.weight;
    total->row_groups_read += m.row_groups_read * q.weight;
    total->pages_read += m.pages_read * q.weight;
    total->rows_returned += m.rows_returned * q.weight;
    out.push_back(m);
  }
  return out;
}

}  // namespace

c::Schema LineitemSchema() {
  c::Schema s;
  s.fields = {{"l_orderkey", c::Int64(), false},        {"l_partkey", c::Int64(), false},
              {"l_suppkey", c::Int64(), false},         {"l_linenumber", c::Int32(), false},
              {"l_quantity", c::Decimal(15, 2), false}, {"l_extendedprice", c::Decimal(15, 2), false},
              {"l_discount", c::Decimal(15, 2), false}, {"l_tax", c::Decimal(15, 2), false},
              {"l_returnflag", c::String(), false},     {"l_linestatus", c::String(), false},
              {"l_shipdate", c::Date(), false},         {"l_commitdate", c::Date(), false},
              {"l_shipmode", c::String(), false},       {"l_env", c::String(), false},
              {"l_skey", c::String(), false},           {"l_note", c::String(), true},
              {"l_comment", c::String(), false}};
  return s;
}

c::RecordBatch GenerateLineitem(LineitemVariant variant, int64_t start, int64_t n) {
  auto schema = std::make_shared<c::Schema>(LineitemSchema());
  std::vector<c::VectorPtr> cols;
  for (const auto& f : schema->fields) cols.push_back(c::Vector::Make(f.type, n));
  static const char* kFlags[] = {"A", "N", "R"};
  static const char* kStatus[] = {"O", "F"};
  static const char* kModes[] = {"TRUCK", "MAIL", "REG AIR", "AIR", "FOB", "RAIL", "SHIP"};
  static const char* kEnvs[] = {"prod", "dev", "stage", "test"};
  static const std::string kText = "carefully final deposits detect slyly agai quickly regular packages";
  const bool corr = variant == LineitemVariant::kCorrelated;
  std::string s;
  char buf[32];
  for (int64_t i = start; i < start + n; ++i) {
    // The correlated variant: orders arrive in order-date order (a few hundred rows a day), ship
    // 1-121 days after the order and commit/receive a few days around the ship date.
    const int64_t order = i / 4;
    const int32_t orderdate = static_cast<int32_t>(order / 200 % 2400);
    const int32_t ship = corr ? orderdate + 1 + static_cast<int32_t>((i * 7919) % 121) : static_cast<int32_t>(i % 2500);
    const int32_t commit = corr ? ship - 15 + static_cast<int32_t>((i * 31) % 45) : static_cast<int32_t>((i + 30) % 2500);
    cols[kOrderkey]->Append<int64_t>(order);
    cols[kPartkey]->Append<int64_t>((i * 7919) % 200000);
    cols[kSuppkey]->Append<int64_t>((i * 31) % 10000);
    cols[kLinenumber]->Append<int32_t>(static_cast<int32_t>(i % 4 + 1));
    cols[kQuantity]->Append<int64_t>((i % 50 + 1) * 100);
    cols[kExtendedprice]->Append<int64_t>((i * 13) % 10000000);
    cols[kDiscount]->Append<int64_t>(i % 11);
    cols[kTax]->Append<int64_t>(i % 9);
    // TPC-H: orders shipped before 1995-06-17 are returned (R/A), later ones open (N).
    cols[kReturnflag]->AppendString(corr ? (ship > 1263 ? "N" : kFlags[(i % 2) * 2]) : kFlags[i % 3]);
    cols[kLinestatus]->AppendString(corr ? (ship > 1263 ? "O" : "F") : kStatus[i % 2]);
    cols[kShipdate]->Append<int32_t>(kDay1992 + ship);
    cols[kCommitdate]->Append<int32_t>(kDay1992 + commit);
    cols[kShipmode]->AppendString(kModes[i % 7]);
    cols[kEnv]->AppendString(kEnvs[(i / 7) % 4]);
    std::snprintf(buf, sizeof(buf), "k%04lld", static_cast<long long>((i * 6151 + 17) % 1000));
    cols[kSkey]->AppendString(buf);
    if ((i * 37) % 1000 == 7) {
      cols[kNote]->AppendNull();
    } else {
      std::snprintf(buf, sizeof(buf), "note %lld", static_cast<long long>(i % 97));
      cols[kNote]->AppendString(buf);
    }
    const size_t from = static_cast<size_t>((i * 7) % 20);
    s.assign(kText, from, static_cast<size_t>(10 + i % 25));
    std::snprintf(buf, sizeof(buf), " %lld", static_cast<long long>((i * 2654435761LL) % 1000003));
    s += buf;
    cols[kComment]->AppendString(s);
  }
  return c::RecordBatch(schema, std::move(cols), n);
}

Result<std::vector<WorkloadQuery>> LineitemWorkload() {
  std::vector<WorkloadQuery> w;
  auto add = [&](std::string name, std::vector<expr::ExprPtr> f, std::vector<ShapeTerm> terms, int weight) {
    WorkloadQuery q;
    q.name = std::move(name);
    q.filters = std::move(f);
    q.shape.terms = std::move(terms);
    q.shape.Normalize();
    q.weight = weight;
    w.push_back(std::move(q));
  };
  using PC = PredicateClass;
  ASSIGN_OR_RETURN(auto skey, Cmp("=", kSkey, c::Value::String("k0421")));
  add("skey_point", {skey}, {{"l_skey", PC::kEq}}, 30);
  std::vector<expr::ExprPtr> list;
  for (const char* k : {"k0001", "k0002", "k0003", "k0004", "k0005"}) list.push_back(expr::Literal(c::Value::String(k)));
  ASSIGN_OR_RETURN(auto in, expr::In(Col(kSkey), std::move(list)));
  add("skey_in", {in}, {{"l_skey", PC::kEq}}, 10);
  ASSIGN_OR_RETURN(auto plo, Cmp(">=", kPartkey, c::Value::Int64(100000)));
  ASSIGN_OR_RETURN(auto phi, Cmp("<=", kPartkey, c::Value::Int64(100199)));
  add("partkey_range", {plo, phi}, {{"l_partkey", PC::kRange}}, 10);
  ASSIGN_OR_RETURN(auto day, Cmp("=", kShipdate, c::Value::Date(kDay1992 + 1263)));
  ASSIGN_OR_RETURN(auto env, Cmp("=", kEnv, c::Value::String("test")));
  add("shipdate_env", {day, env}, {{"l_shipdate", PC::kEq}, {"l_env", PC::kEq}}, 15);
  ASSIGN_OR_RETURN(auto dlo, Cmp(">=", kShipdate, c::Value::Date(kDay1992 + 1000)));
  ASSIGN_OR_RETURN(auto dhi, Cmp("<", kShipdate, c::Value::Date(kDay1992 + 1030)));
  add("shipdate_month", {dlo, dhi}, {{"l_shipdate", PC::kRange}}, 15);
  add("note_null", {expr::IsNull(Col(kNote))}, {{"l_note", PC::kIsNull}}, 5);
  return w;
}

Result<LayoutResult> RunLayoutCandidate(std::shared_ptr<io::FileSystem> fs, const std::string& root,
                                        const LayoutCandidate& cand, const std::vector<WorkloadQuery>& workload,
                                        const LayoutExperimentOptions& options) {
  (void)fs->DeleteRecursive(root);
  std::map<std::string, std::string> props;
  if (cand.auto_mode) {
    props["shoal.localSort.auto"] = "true";
  } else if (!cand.key.empty()) {
    std::string cols;
    for (const auto& col : cand.key.columns) cols += (cols.empty() ? "" : ",") + col;
    props["shoal.localSort.columns"] = cols;
    if (cand.key.mode == LocalSortMode::kZOrder) props["shoal.localSort.mode"] = "zorder";
    if (cand.scope == LocalSortScope::kWrite) props["shoal.localSort.scope"] = "write";
  }
  RETURN_NOT_OK(CreateTable(fs, root, "lineitem", LineitemSchema(), {}, props).status());
  LayoutResult r;
  r.name = cand.name;
  r.key = cand.key;
  ASSIGN_OR_RETURN(WriteTime written, WriteData(fs, root, options));
  r.write_cpu_ms = written.cpu_ms;
  r.write_wall_ms = written.wall_ms;
  if (cand.auto_mode) {
    // Replay the history as the SQL recorder logs it: one entry per run of a query.
    ASSIGN_OR_RETURN(auto table, scan::DeltaTable::Open(fs, root));
    const int64_t rows_total = table->EstimatedRows().value_or(options.rows);
    QueryLogLimits limits;
    for (const auto& q : workload) {
      ASSIGN_OR_RETURN(WorkloadMeasure m, RunQuery(*table, q));
      for (int k = 0; k < q.weight; ++k) {
        QueryLogEntry e;
        e.shape = q.shape;
        e.rows_total = rows_total;
        e.rows_out = m.rows_returned;
        e.bytes_read = m.bytes_read;
        RETURN_NOT_OK(AppendQueryLogEntry(*fs, root, e, limits));
      }
    }
    // OPTIMIZE runs the advisor, persists the key and re-sorts the (unsorted) files.
    ASSIGN_OR_RETURN(table, scan::DeltaTable::Open(fs, root));
    txn::TransactionOptions to;
    to.operation = "OPTIMIZE";
    ASSIGN_OR_RETURN(auto t, txn::Transaction::Begin(fs, root, table->snapshot(), to));
    OptimizeOptions oo;
    oo.min_file_size = 1;
    oo.threads = 1;
    double t0 = CpuMs(), w0 = WallMs();
    ASSIGN_OR_RETURN(auto res, OptimizeTable(*table, t.get(), oo));
    r.write_cpu_ms += CpuMs() - t0;
    r.write_wall_ms += WallMs() - w0;
    RETURN_NOT_OK(t->Commit().status());
    if (auto choice = ReadLayoutChoice(*fs, root)) r.key = choice->key;
  }
  ASSIGN_OR_RETURN(auto table, scan::DeltaTable::Open(fs, root));
  const delta::FileList& files = table->snapshot()->file_list();
  for (size_t i = 0; i < files.size(); ++i) {
    r.storage_bytes += files.file_size(i);
    ASSIGN_OR_RETURN(std::string path, delta::ResolveTablePath(root, files.path(i)));
    ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::Open(fs, path));
    r.row_groups_total += reader->num_row_groups();
  }
  r.files = static_cast<int64_t>(files.size());
  ASSIGN_OR_RETURN(r.per_query, RunWorkload(fs, root, workload, &r.workload));
  return r;
}

}  // namespace shoal::table
