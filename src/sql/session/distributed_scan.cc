// The read side of shoal/distributed.h: PlanTableFiles and RegisterTableFiles.
#include <numeric>

#include "delta/stats_scan.h"
#include "shoal/distributed.h"
#include "sql/binder/catalog.h"
#include "sql/binder/table_expression.h"
#include "sql/functions/delta_table_source.h"
#include "sql/session/database_impl.h"

namespace shoal {

namespace {

// The Delta table `table` (a path as delta.`path` takes it) at `version`.
Result<std::shared_ptr<const scan::DeltaTable>> OpenTable(Connection& connection, std::string_view table,
                                                          std::optional<int64_t> version) {
  if (table.empty()) return Status::InvalidArgument("table path is empty");
  Database::Impl& db = *connection.impl().db;
  sql::Catalog catalog(db.fs, db.dir);
  sql::TableName name;
  name.path = std::string(table);
  scan::TimeTravel at;
  at.version = version;
  ASSIGN_OR_RETURN(std::shared_ptr<const sql::TableSource> source, catalog.ResolveTable(name, at));
  auto delta = std::dynamic_pointer_cast<const sql::DeltaTableSource>(source);
  if (!delta) return Status::Internal("table " + name.ToString() + " did not resolve to a Delta table");
  return delta->table();
}

}  // namespace

Result<TableFilePlan> PlanTableFiles(Connection& connection, std::string_view table, std::string_view filter,
                                     std::optional<int64_t> version) {
  ASSIGN_OR_RETURN(std::shared_ptr<const scan::DeltaTable> t, OpenTable(connection, table, version));
  const scan::TableSchema& schema = *t->schema();
  TableFilePlan plan;
  plan.root = t->snapshot()->table_root();
  plan.version = t->snapshot()->version();
  std::vector<int> partition_index;
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    plan.column_names.push_back(schema.columns[c].name);
    plan.column_types.push_back(schema.columns[c].type->ToString());
    if (schema.columns[c].is_partition) {
      plan.partition_columns.push_back(schema.columns[c].name);
      partition_index.push_back(static_cast<int>(c));
    }
  }
  scan::DeltaScanOptions options;
  options.columns.resize(schema.columns.size());
  std::iota(options.columns.begin(), options.columns.end(), 0);
  if (!filter.empty()) {
    ASSIGN_OR_RETURN(expr::ExprPtr bound, sql::BindTableExpression(std::string(filter), schema.schema));
    if (bound->type->id() != columnar::TypeId::kBoolean) {
      return Status::InvalidArgument("filter must be a boolean expression, got " + bound->type->ToString() + ": " +
                                     std::string(filter));
    }
    options.filters.push_back(std::move(bound));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<scan::FileSetScan> scan, t->Plan(options));
  const delta::FileList& files = t->snapshot()->file_list();
  plan.files_total = static_cast<int64_t>(files.size());
  for (const scan::FileTask& task : scan->files()) {
    const size_t i = static_cast<size_t>(task.id);
    const delta::AddFile add = files.Get(i);
    TableDataFile f;
    f.path = add.path;
    f.size_bytes = add.size;
    if (add.stats) {
      f.stats_json = *add.stats;
      auto parsed = delta::ParseStatsJsonFor(*add.stats, {});
      if (parsed.ok() && parsed->num_records) f.num_records = *parsed->num_records;
    }
    if (add.deletion_vector) f.deleted_rows = add.deletion_vector->cardinality;
    for (int c : partition_index) {
      const columnar::Value* v = task.partition_values[c] ? &*task.partition_values[c] : nullptr;
      if (!v || v->is_null()) {
        f.partition_values.emplace_back(std::nullopt);
      } else {
        auto it = add.partition_values.find(schema.columns[c].physical_name);
        if (it == add.partition_values.end()) it = add.partition_values.find(schema.columns[c].name);
        f.partition_values.emplace_back(it == add.partition_values.end() ? std::nullopt : it->second);
      }
    }
    plan.files.push_back(std::move(f));
  }
  return plan;
}

Status RegisterTableFiles(Connection& connection, const std::string& name, std::string_view table, int64_t version,
                          const std::vector<std::string>& paths) {
  if (name.empty()) return Status::InvalidArgument("RegisterTableFiles: the name is empty");
  ASSIGN_OR_RETURN(std::shared_ptr<const scan::DeltaTable> t, OpenTable(connection, table, version));
  ASSIGN_OR_RETURN(std::shared_ptr<const scan::DeltaTable> split, t->Restrict(paths));
  // No query-log recording (the log_fs argument): a split is one worker's part of a job.
  connection.impl().session.RegisterRelation(name, std::make_shared<sql::DeltaTableSource>(std::move(split), name));
  return Status::OK();
}

}  // namespace shoal
