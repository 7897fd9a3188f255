// The extension module shoal._shoal: connections and results over the engine's public API
// (include/shoal/database.h). The Python package `shoal` (python/shoal/) wraps it with the
// DB-API-like surface (doc/python.md).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arrow_capsule.h"
#include "arrow_result.h"
#include "columnar/vector.h"
#include "errors.h"
#include "frame_import.h"
#include "parameters.h"
#include "query_runner.h"
#include "result_convert.h"
#include "shoal/database.h"
#include "shoal/distributed.h"
#include "sql/functions/arrow_stream_source.h"
#include "sql/session/arrow_export.h"
#include "sql/session/database_impl.h"

namespace shoal::python {

namespace py = pybind11;

namespace {

// One statement's materialized result with a read position. Independent of its connection:
// it stays readable after the connection is closed.
//
// Thread-safety: used under the GIL, which serializes its callers.
class PyResult {
 public:
  explicit PyResult(QueryResult r) : statement_type_(r.statement_type()) {
    for (int i = 0; i < r.num_columns(); ++i) {
      columns_.push_back(r.column_name(i));
      types_.push_back(r.column_type(i));
    }
    cursor_.schema = r.schema();
    cursor_.batches = r.batches();
  }

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::string>& types() const { return types_; }
  const std::string& statement_type() const { return statement_type_; }
  int64_t rows_left() const { return cursor_.RowsLeft(); }
  py::list FetchRows(int64_t n) { return python::FetchRows(&cursor_, n); }
  py::dict FetchColumns() { return python::FetchColumns(&cursor_); }

  // Every row (wherever the read position is; it does not move) as an Arrow C stream capsule:
  // Relation.__arrow_c_stream__.
  py::capsule ArrowCStream(py::object requested_schema) {
    if (!requested_schema.is_none()) CheckRequestedSchema(requested_schema, *cursor_.schema);
    return Export(cursor_.batches);
  }
  // The rows after the read position, which moves to the end, in batches of `batch_size` rows
  // (0: as they are): fetch_arrow_reader / fetch_arrow_table.
  py::capsule FetchArrowStream(int64_t batch_size) {
    if (batch_size < 0) RaiseInvalidArgument("batch_size must be positive, got " + std::to_string(batch_size));
    return Export(TakeRemaining(&cursor_, batch_size));
  }

 private:
  py::capsule Export(std::vector<std::shared_ptr<columnar::RecordBatch>> batches) {
    ArrowArrayStream stream{};
    Status st = sql::ExportArrowBatches(cursor_.schema, std::move(batches), &stream);
    if (!st.ok()) RaiseStatus(st);
    return StreamCapsule(&stream);
  }

  std::vector<std::string> columns_;
  std::vector<std::string> types_;
  std::string statement_type_;
  ResultCursor cursor_;
};

// A connection to a warehouse. Statements on one PyConnection run one at a time (a mutex);
// open one per thread (cursor()) to run them in parallel.
//
// Thread-safety: any thread may call it; statements serialize on the mutex, interrupt() does
// not wait for it.
class PyConnection {
  // Runs `f` under the mutex (taken with the GIL released); raises if the connection is closed.
  template <typename F>
  auto Locked(F f) {
    std::unique_lock<std::mutex> lock(mu_, std::defer_lock);
    {
      py::gil_scoped_release release;
      lock.lock();
    }
    if (!conn_) RaiseClosed("connection");
    return f();
  }

  Status RunLocked(const std::function<Status(Connection*)>& f) {
    std::unique_lock<std::mutex> lock(mu_, std::defer_lock);
    {
      py::gil_scoped_release release;
      lock.lock();
    }
    if (!conn_) RaiseClosed("connection");
    Connection* c = conn_.get();
    return RunInterruptible(c, [&] { return f(c); });
  }

 public:
  PyConnection(const std::string& path, int threads) {
    DatabaseOptions options;
    options.threads = threads;
    auto db = Database::Open(path, options);
    if (!db.ok()) RaiseStatus(db.status());
    db_ = std::shared_ptr<Database>(std::move(db).value().release());
    conn_ = db_->Connect();
    conn_raw_.store(conn_.get());
  }
  explicit PyConnection(std::shared_ptr<Database> db) : db_(std::move(db)), conn_(db_->Connect()) {
    conn_raw_.store(conn_.get());
  }

  std::unique_ptr<PyConnection> Cursor() {
    std::shared_ptr<Database> db = Locked([this] { return db_; });
    return std::make_unique<PyConnection>(std::move(db));
  }

  std::unique_ptr<PyResult> Query(const std::string& sql) {
    Result<QueryResult> result = Status::Internal("statement did not run");
    Status st = RunLocked([&](Connection* c) {
      result = c->Query(sql);
      return Status::OK();
    });
    if (!st.ok()) RaiseStatus(st, sql);
    if (!result.ok()) RaiseStatus(result.status(), sql);
    return std::make_unique<PyResult>(std::move(result).value());
  }

  // Runs the statements of `sql` as prepared statements, each bound to the next of `params`'
  // values (doc/python.md); returns the last one's result.
  std::unique_ptr<PyResult> Execute(const std::string& sql, py::handle params) {
    const std::vector<Parameter> values = ToParameters(params);
    Result<QueryResult> result = QueryResult();
    Status st = RunLocked([&](Connection* c) -> Status {
      ASSIGN_OR_RETURN(std::vector<std::string_view> texts, SplitStatements(sql));
      // An error's offset is into one statement's text; the caller's is the whole `sql`.
      auto in_sql = [&sql](const Status& error, std::string_view text) {
        std::optional<int64_t> offset = error.error_offset();
        if (!offset) return error;
        return error.WithErrorOffset(*offset + (text.data() - sql.data()));
      };
      std::vector<std::unique_ptr<PreparedStatement>> statements;
      size_t wanted = 0;
      for (std::string_view text : texts) {
        auto p = c->Prepare(text);
        if (!p.ok()) return in_sql(p.status(), text);
        wanted += static_cast<size_t>((*p)->parameter_count());
        statements.push_back(std::move(p).value());
      }
      if (wanted != values.size()) {
        return Status::InvalidArgument("the statement has " + std::to_string(wanted) + " parameter(s), " +
                                       std::to_string(values.size()) + " given");
      }
      size_t next = 0;
      for (size_t s = 0; s < statements.size(); ++s) {
        PreparedStatement* p = statements[s].get();
        for (int i = 1; i <= p->parameter_count(); ++i) RETURN_NOT_OK(Bind(p, i, values[next++]));
        result = p->Execute();
        if (!result.ok()) return in_sql(result.status(), texts[s]);
      }
      return Status::OK();
    });
    if (!st.ok()) RaiseStatus(st, sql);
    return std::make_unique<PyResult>(std::move(result).value());
  }

  // Runs `sql` and reads every fixed-width value of the result in C++ (no Python objects): the
  // baseline of bench/python_fetch.py. Returns the number of values read.
  int64_t QueryTouch(const std::string& sql) {
    int64_t values = 0;
    Status st = RunLocked([&](Connection* c) {
      ASSIGN_OR_RETURN(QueryResult r, c->Query(sql));
      uint64_t sum = 0;
      for (const auto& b : r.batches()) {
        for (const auto& col : b->columns) {
          const int width = col->type()->SlotWidth();
          if (width != 8 || col->type()->HasOffsets()) continue;
          const uint64_t* d = col->data<uint64_t>();
          for (int64_t i = 0; i < b->num_rows; ++i) sum += d[i];
          values += b->num_rows;
        }
      }
      sink_ = sum;
      return Status::OK();
    });
    if (!st.ok()) RaiseStatus(st);
    return values;
  }

  void Register(const std::string& name, const std::vector<py::tuple>& columns) {
    std::vector<ImportColumn> cols;
    for (const py::tuple& t : columns) {
      if (t.size() != 4) RaiseInvalidArgument("register: a column is (name, values, mask, kind)");
      cols.push_back({t[0].cast<std::string>(), py::array(t[1]), t[2], t[3].cast<std::string>()});
    }
    std::shared_ptr<const sql::TableSource> source =
        ImportColumns(name, cols, Locked([this] { return db_->options().batch_size; }));
    Locked([&] {
      conn_->impl().session.RegisterRelation(name, source);
      return 0;
    });
  }

  // Reads the Arrow C stream in `capsule` (moved out of it) to its end and registers its rows as
  // `name`, readable by any number of later statements.
  void RegisterArrow(const std::string& name, py::handle capsule) {
    const int batch_size = Locked([this] { return db_->options().batch_size; });
    ArrowArrayStream stream = TakeStream(capsule, "register " + name);
    Result<std::shared_ptr<const sql::TableSource>> source = Status::Internal("not read");
    {
      // A producer written in Python takes the GIL in its callbacks.
      py::gil_scoped_release release;
      source = sql::ReadArrowStream(&stream, name, batch_size);
    }
    if (!source.ok()) RaiseStatus(source.status());
    Locked([&] {
      conn_->impl().session.RegisterRelation(name, *source);
      return 0;
    });
  }

  void Unregister(const std::string& name) {
    Locked([&] {
      conn_->impl().session.RegisterRelation(name, nullptr);
      return 0;
    });
  }

  // ---- shoal/distributed.h, for shoal.dask (doc/dask.md)
  static py::dict PlanDict(const TableFilePlan& plan) {
    py::dict out;
    out["root"] = plan.root;
    out["version"] = plan.version;
    out["column_names"] = plan.column_names;
    out["column_types"] = plan.column_types;
    out["partition_columns"] = plan.partition_columns;
    out["files_total"] = plan.files_total;
    py::list files;
    for (const TableDataFile& f : plan.files) {
      py::dict d;
      d["path"] = f.path;
      d["size_bytes"] = f.size_bytes;
      d["num_records"] = f.num_records;
      d["deleted_rows"] = f.deleted_rows;
      d["partition_values"] = f.partition_values;
      d["stats_json"] = f.stats_json;
      files.append(std::move(d));
    }
    out["files"] = std::move(files);
    return out;
  }

  static StagedChanges ChangesFrom(const py::dict& d) {
    StagedChanges c;
    c.root = d["root"].cast<std::string>();
    c.read_version = d["read_version"].cast<int64_t>();
    c.transaction = d["transaction"].cast<std::string>();
    return c;
  }
  // Runs f(connection), which returns a Result, under the connection's lock and returns its
  // value; a failure raises the named Python exception, with the error's offset located in `sql`
  // when it is given.
  template <typename F>
  auto RunResult(F f, std::optional<std::string_view> sql = std::nullopt) {
    decltype(f(std::declval<Connection&>())) r = Status::Internal("not run");
    Status st = RunLocked([&](Connection* c) {
      r = f(*c);
      return Status::OK();
    });
    if (st.ok()) st = r.status();
    if (!st.ok()) sql ? RaiseStatus(st, *sql) : RaiseStatus(st);
    return std::move(*r);
  }

  py::dict PlanTableFiles(const std::string& table, const std::string& filter, std::optional<int64_t> version) {
    return PlanDict(RunResult([&](Connection& c) { return shoal::PlanTableFiles(c, table, filter, version); }, filter));
  }

  void RegisterTableFiles(const std::string& name, const std::string& table, int64_t version,
                          const std::vector<std::string>& paths) {
    Status st = RunLocked([&](Connection* c) { return shoal::RegisterTableFiles(*c, name, table, version, paths); });
    if (!st.ok()) RaiseStatus(st);
  }

  py::dict StageInsert(const std::string& sql) {
    const StagedFiles staged = RunResult([&](Connection& c) { return shoal::StageInsert(c, sql); }, sql);
    py::dict out;
    out["root"] = staged.root;
    out["read_version"] = staged.read_version;
    out["rows"] = staged.rows;
    out["add_actions"] = staged.add_actions;
    return out;
  }

  // Runs commit(connection) under the connection's lock and returns its outcome as a dict.
  template <typename Commit>
  py::dict RunCommit(Commit commit) {
    const StagedCommit r = RunResult(commit);
    py::dict out;
    out["version"] = r.version;
    out["already_committed"] = r.already_committed;
    out["files"] = r.files;
    return out;
  }

  static StagedCommitOptions CommitOptions(bool overwrite, int64_t read_version, const std::string& app_id,
                                           int64_t app_version) {
    StagedCommitOptions o;
    o.overwrite = overwrite;
    o.read_version = read_version;
    o.app_id = app_id;
    o.app_version = app_version;
    return o;
  }

  py::dict CommitStaged(const std::string& table, const std::vector<std::string>& actions, bool overwrite,
                        int64_t read_version, const std::string& app_id, int64_t app_version) {
    const StagedCommitOptions o = CommitOptions(overwrite, read_version, app_id, app_version);
    return RunCommit([&](Connection& c) { return shoal::CommitStagedFiles(c, table, actions, o); });
  }

  py::dict PlanStatementFiles(const std::string& table, const std::string& sql, std::optional<int64_t> version) {
    return PlanDict(RunResult([&](Connection& c) { return shoal::PlanStatementFiles(c, table, sql, version); }, sql));
  }

  py::dict StageStatement(const std::string& table, const std::string& sql, int64_t version,
                          const std::vector<std::string>& paths) {
    const StagedChanges staged =
        RunResult([&](Connection& c) { return shoal::StageStatement(c, table, sql, version, paths); }, sql);
    py::dict out;
    out["root"] = staged.root;
    out["read_version"] = staged.read_version;
    out["metric_names"] = staged.metric_names;
    out["metrics"] = staged.metrics;
    out["transaction"] = staged.transaction;
    return out;
  }

  py::dict CommitStagedChanges(const std::string& table, const py::list& changes, int64_t read_version,
                               const std::string& app_id, int64_t app_version) {
    std::vector<StagedChanges> all;
    for (const py::handle& h : changes) all.push_back(ChangesFrom(h.cast<py::dict>()));
    const StagedCommitOptions o = CommitOptions(false, read_version, app_id, app_version);
    return RunCommit([&](Connection& c) { return shoal::CommitStagedChanges(c, table, all, o); });
  }

  py::dict SplitMergeStatement(const std::string& table, const std::string& sql, const std::string& split_name,
                               const std::string& row_column) {
    const MergeParts parts = RunResult(
        [&](Connection& c) { return shoal::SplitMergeStatement(c, table, sql, split_name, row_column); }, sql);
    py::dict out;
    out["source_name"] = parts.source_name;
    out["matched_sql"] = parts.matched_sql;
    out["insert_sql"] = parts.insert_sql;
    out["matched_rows_sql"] = parts.matched_rows_sql;
    return out;
  }

  void DiscardStagedChanges(const std::string& table, const py::list& changes) {
    std::vector<StagedChanges> all;
    for (const py::handle& h : changes) all.push_back(ChangesFrom(h.cast<py::dict>()));
    Status st = RunLocked([&](Connection* c) { return shoal::DiscardStagedChanges(*c, table, all); });
    if (!st.ok()) RaiseStatus(st);
  }

  void DiscardStaged(const std::string& table, const std::vector<std::string>& actions) {
    Status st = RunLocked([&](Connection* c) { return shoal::DiscardStagedFiles(*c, table, actions); });
    if (!st.ok()) RaiseStatus(st);
  }

  // Not under the mutex (a running statement holds it). Interrupt and Close both run with the
  // GIL held, so the connection cannot be destroyed in between.
  void Interrupt() {
    Connection* c = conn_raw_.load();
    if (c) c->Interrupt();
  }

  void Close() {
    std::unique_lock<std::mutex> lock(mu_, std::defer_lock);
    {
      py::gil_scoped_release release;
      lock.lock();
    }
    conn_raw_.store(nullptr);
    conn_.reset();
    db_.reset();
  }

  bool closed() const { return conn_raw_.load() == nullptr; }

 private:
  std::mutex mu_;
  std::shared_ptr<Database> db_;
  std::unique_ptr<Connection> conn_;
  std::atomic<Connection*> conn_raw_{nullptr};  // for Interrupt() without the mutex
  uint64_t sink_ = 0;                           // keeps QueryTouch's sum observable
};

}  // namespace
}  // namespace shoal::python

using shoal::python::PyConnection;
using shoal::python::PyResult;
namespace py = pybind11;

PYBIND11_MODULE(_shoal, m) {
  m.doc() = "shoal's engine binding; use the `shoal` package (doc/python.md).";
  shoal::python::RegisterErrors(m);
  m.attr("__version__") = std::string(shoal::Version()).substr(std::string("shoal ").size());

  py::class_<PyResult>(m, "_Result")
      .def_property_readonly("columns", &PyResult::columns)
      .def_property_readonly("types", &PyResult::types)
      .def_property_readonly("statement_type", &PyResult::statement_type)
      .def_property_readonly("rows_left", &PyResult::rows_left)
      .def("fetch_rows", &PyResult::FetchRows, py::arg("n") = -1)
      .def("fetch_columns", &PyResult::FetchColumns)
      .def("arrow_c_stream", &PyResult::ArrowCStream, py::arg("requested_schema") = py::none())
      .def("fetch_arrow_stream", &PyResult::FetchArrowStream, py::arg("batch_size") = 0);

  py::class_<PyConnection>(m, "_Connection")
      .def(py::init<const std::string&, int>(), py::arg("path"), py::arg("threads") = 0)
      .def("cursor", &PyConnection::Cursor)
      .def("query", &PyConnection::Query, py::arg("sql"))
      .def("query_touch", &PyConnection::QueryTouch, py::arg("sql"))
      .def("execute", &PyConnection::Execute, py::arg("sql"), py::arg("params"))
      .def("register", &PyConnection::Register, py::arg("name"), py::arg("columns"))
      .def("register_arrow", &PyConnection::RegisterArrow, py::arg("name"), py::arg("capsule"))
      .def("unregister", &PyConnection::Unregister, py::arg("name"))
      .def("plan_table_files", &PyConnection::PlanTableFiles, py::arg("table"), py::arg("filter"),
           py::arg("version") = py::none())
      .def("register_table_files", &PyConnection::RegisterTableFiles, py::arg("name"), py::arg("table"),
           py::arg("version"), py::arg("paths"))
      .def("stage_insert", &PyConnection::StageInsert, py::arg("sql"))
      .def("commit_staged", &PyConnection::CommitStaged, py::arg("table"), py::arg("actions"),
           py::arg("overwrite") = false, py::arg("read_version") = -1, py::arg("app_id") = "",
           py::arg("app_version") = -1)
      .def("discard_staged", &PyConnection::DiscardStaged, py::arg("table"), py::arg("actions"))
      .def("plan_statement_files", &PyConnection::PlanStatementFiles, py::arg("table"), py::arg("sql"),
           py::arg("version") = py::none())
      .def("stage_statement", &PyConnection::StageStatement, py::arg("table"), py::arg("sql"), py::arg("version"),
           py::arg("paths"))
      .def("commit_staged_changes", &PyConnection::CommitStagedChanges, py::arg("table"), py::arg("changes"),
           py::arg("read_version") = -1, py::arg("app_id") = "", py::arg("app_version") = -1)
      .def("discard_staged_changes", &PyConnection::DiscardStagedChanges, py::arg("table"), py::arg("changes"))
      .def("split_merge_statement", &PyConnection::SplitMergeStatement, py::arg("table"), py::arg("sql"),
           py::arg("split_name"), py::arg("row_column"))
      .def("interrupt", &PyConnection::Interrupt)
      .def("close", &PyConnection::Close)
      .def_property_readonly("closed", &PyConnection::closed);
}
