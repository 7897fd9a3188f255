// Session handlers for ALTER TABLE, VACUUM and RESTORE: SQL glue around table/alter_schema.h,
// table/vacuum.h and table/restore.h (doc/maintenance.md). DESCRIBE HISTORY/DETAIL live in
// maintenance_history.cc, COPY in maintenance_copy.cc.
#include <cmath>

#include "sql/binder/binder.h"
#include "scan/delta_schema.h"
#include "sql/binder/catalog.h"
#include "sql/write/column_defaults.h"
#include "sql/session/database_impl.h"
#include "sql/session/key_constraints.h"
#include "sql/session/maintenance_result.h"
#include "sql/session/maintenance_statement.h"
#include "sql/parser/parser.h"
#include "sql/execution/statement_progress.h"
#include "sql/session/session.h"
#include "table/alter_schema.h"
#include "table/column_default_alter.h"
#include "table/restore.h"
#include "table/vacuum.h"

namespace shoal::sql {

namespace {

using Action = AlterTableStatement::Action;

// The commitInfo operation of an ALTER action, as Spark names it.
std::string AlterOperation(Action a) {
  switch (a) {
    case Action::kAddColumns: return "ADD COLUMNS";
    case Action::kRenameColumn: return "RENAME COLUMN";
    case Action::kDropColumns: return "DROP COLUMNS";
    case Action::kSetProperties: return "SET TBLPROPERTIES";
    case Action::kUnsetProperties: return "UNSET TBLPROPERTIES";
    case Action::kSetNotNull:
    case Action::kDropNotNull: return "CHANGE COLUMN";
    case Action::kAddConstraint: return "ADD CONSTRAINT";
    case Action::kDropConstraint:
    case Action::kDropPrimaryKey: return "DROP CONSTRAINT";
    case Action::kAddKeyConstraint: return "ADD CONSTRAINT";
    case Action::kSetDefault:
    case Action::kDropDefault: return "CHANGE COLUMN";
  }
  return "ALTER TABLE";
}

std::vector<std::string> SplitDotted(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    out.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

// Applies the ALTER action to the table's current metadata and protocol.
Result<table::AlterResult> ComputeAlter(const AlterTableStatement& a, const delta::Metadata& meta,
                                        const delta::Protocol& protocol, const std::string& table_name) {
  switch (a.action) {
    case Action::kAddColumns: {
      columnar::Schema columns;
      table::ColumnSpecs specs;
      for (const auto& c : a.add_columns) {
        if (c.generated || c.identity) {
          return Status::NotSupported("ALTER TABLE ADD COLUMNS cannot add identity or generated column " + c.name);
        }
        ASSIGN_OR_RETURN(columnar::TypePtr type, BindTypeName(c.type));
        columns.fields.push_back({c.name, type, !c.not_null});
        if (c.comment) specs[c.name].comment = c.comment;
      }
      return table::AddColumns(meta, protocol, columns, specs);
    }
    case Action::kRenameColumn: return table::RenameColumn(meta, protocol, SplitDotted(a.column), a.new_name);
    case Action::kDropColumns: return table::DropColumns(meta, protocol, a.columns, a.if_exists);
    case Action::kSetProperties: {
      std::map<std::string, std::string> props;
      for (const auto& [k, v] : a.properties) props[k] = v;
      return table::SetProperties(meta, protocol, props);
    }
    case Action::kUnsetProperties:
      return table::UnsetProperties(meta, protocol, a.property_keys, a.if_exists, table_name);
    case Action::kSetNotNull: return table::SetColumnNullable(meta, protocol, a.column, false);
    case Action::kDropNotNull: return table::SetColumnNullable(meta, protocol, a.column, true);
    case Action::kAddConstraint:
      return table::AddCheckConstraint(meta, protocol, a.constraint.name, a.constraint.expr->ToString());
    case Action::kDropConstraint: {
      // A key constraint of that name, else a CHECK constraint.
      for (const auto& [k, v] : meta.configuration) {
        if (IsKeyConstraintProperty(k) && Lower(k.substr(kKeyConstraintPrefix.size())) == Lower(a.constraint_name)) {
          return table::UnsetProperties(meta, protocol, {k}, false, table_name);
        }
      }
      return table::DropCheckConstraint(meta, protocol, a.constraint_name, a.if_exists, table_name);
    }
    case Action::kAddKeyConstraint: {
      ASSIGN_OR_RETURN(scan::TableSchema t, scan::BuildTableSchema(meta));
      std::map<std::string, std::string> configuration(meta.configuration.begin(), meta.configuration.end());
      const std::string short_name = a.table.IsPath() ? std::string("table") : a.table.parts.back();
      ASSIGN_OR_RETURN(std::string key, AddKeyConstraint(a.key_constraint, short_name, t.schema, &configuration));
      return table::SetProperties(meta, protocol, {{key, configuration[key]}});
    }
    case Action::kDropPrimaryKey: {
      std::map<std::string, std::string> configuration(meta.configuration.begin(), meta.configuration.end());
      std::string key = PrimaryKeyProperty(configuration);
      if (key.empty()) return Status::Binder("table " + table_name + " has no PRIMARY KEY");
      return table::UnsetProperties(meta, protocol, {key}, false, table_name);
    }
    case Action::kSetDefault: {
      ASSIGN_OR_RETURN(scan::TableSchema t, scan::BuildTableSchema(meta));
      int c = t.Find(a.column);
      if (c < 0) return Status::Binder("Column " + a.column + " does not exist");
      std::string sql = a.default_value->ToString();
      RETURN_NOT_OK(ValidateDefaultExpression(sql, t.schema.fields[static_cast<size_t>(c)]));
      return table::SetColumnDefault(meta, protocol, a.column, sql);
    }
    case Action::kDropDefault: return table::SetColumnDefault(meta, protocol, a.column, std::nullopt);
  }
  return Status::Internal("unknown ALTER TABLE action");
}

}  // namespace

Result<QueryResult> Session::RunAlterTable(const Statement& s) {
  const auto& a = s.As<AlterTableStatement>();
  std::string name = a.table.ToString();
  ASSIGN_OR_RETURN(auto latest, OpenMaintenanceTable(*db_, a.table, LoadProgress()));
  const auto& snap = *latest->snapshot();
  if (a.action == Action::kDropPrimaryKey && a.if_exists) {
    std::map<std::string, std::string> configuration(snap.metadata().configuration.begin(),
                                                     snap.metadata().configuration.end());
    if (PrimaryKeyProperty(configuration).empty()) return QueryResult();  // nothing to drop, nothing written
  }
  ASSIGN_OR_RETURN(table::AlterResult first, ComputeAlter(a, snap.metadata(), snap.protocol(), name));

  // Existing rows must satisfy a new NOT NULL or CHECK constraint.
  if (a.action == Action::kSetNotNull || a.action == Action::kAddConstraint) {
    // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on `"(" + std::string`.
    std::string condition;
    if (a.action == Action::kSetNotNull) {
      condition = QuoteIdentifier(a.column) + " IS NULL";
    } else {
      condition.append("(").append(a.constraint.expr->ToString()).append(") IS NOT TRUE");
    }
    ASSIGN_OR_RETURN(int64_t violations,
                     CountRows(*this, "SELECT count(*) FROM " + name + " WHERE " + condition));
    if (violations > 0) {
      if (a.action == Action::kSetNotNull) {
        return Status::Constraint(std::to_string(violations) + " rows in " + name +
                                  " violate the new NOT NULL constraint on " + a.column);
      }
      return Status::Constraint(std::to_string(violations) + " rows in " + name + " violate the new CHECK constraint (" +
                                a.constraint.expr->ToString() + ")");
    }
  }

  ASSIGN_OR_RETURN(TableWrite * write, BeginTableWrite(a.table, AlterOperation(a.action), first.parameters));
  auto staged = [&]() -> Status {
    // A new constraint depends on every existing row: concurrent appends must conflict.
    if (a.action == Action::kSetNotNull || a.action == Action::kAddConstraint) write->txn->ReadWholeTable();
    ASSIGN_OR_RETURN(table::AlterResult r,
                     ComputeAlter(a, write->txn->metadata(), write->table->snapshot()->protocol(), name));
    write->txn->UpdateMetadata(r.metadata);
    if (r.protocol) write->txn->UpdateProtocol(*r.protocol);
    return Status::OK();
  }();
  if (!staged.ok()) {
    AbortTableWrite(write, staged);
    return staged;
  }
  RETURN_NOT_OK(EndTableWrite(write).status());
  return QueryResult();
}

Result<QueryResult> Session::RunVacuum(const Statement& s) {
  const auto& v = s.As<VacuumStatement>();
  ASSIGN_OR_RETURN(auto latest, OpenMaintenanceTable(*db_, v.table, LoadProgress()));
  table::VacuumOptions options;
  options.dry_run = v.dry_run;
  if (v.retain_hours) {
    double hours = 0;
    try {
      size_t used = 0;
      hours = std::stod(*v.retain_hours, &used);
      if (used != v.retain_hours->size() || !std::isfinite(hours)) throw std::invalid_argument("x");
    } catch (...) {
      return Status::InvalidArgument("VACUUM RETAIN needs a number of hours, got " + *v.retain_hours);
    }
    if (hours > 1e9) return Status::InvalidArgument("VACUUM RETAIN " + *v.retain_hours + " HOURS is too long");
    options.retention_ms = static_cast<int64_t>(std::llround(hours * 3600.0 * 1000.0));
  }
  if (auto check = Setting("shoal.vacuum.retentioncheck")) {
    options.retention_check = !(*check == "false" || *check == "0" || *check == "off");
  }
  std::shared_ptr<StatementProgress> progress = NewProgress();
  if (progress) options.progress = PhaseReporter(progress, progress->AddPhase(1, "VACUUM"));
  ASSIGN_OR_RETURN(table::VacuumResult r, table::Vacuum(db_->fs, *latest->snapshot(), options));
  ResultRows rows;
  rows.AddColumn("path", columnar::String());
  for (const auto& f : r.files) rows.AddRow({columnar::Value::String(f)});
  return rows.Build();
}

Result<QueryResult> Session::RunRestore(const Statement& s) {
  const auto& r = s.As<RestoreStatement>();
  ASSIGN_OR_RETURN(auto latest, OpenMaintenanceTable(*db_, r.table, LoadProgress()));
  ASSIGN_OR_RETURN(columnar::Value target_value, EvaluateConstant(*this, *r.target.value));
  ASSIGN_OR_RETURN(scan::TimeTravel at, EvaluateTimeTravel(r.target.kind, target_value));
  if (at.version && *at.version > latest->snapshot()->version()) {
    return Status::InvalidArgument("Cannot restore table to version " + std::to_string(*at.version) +
                                   ". Available versions: [0, " + std::to_string(latest->snapshot()->version()) +
                                   "].");
  }
  ASSIGN_OR_RETURN(std::string root, Catalog(db_->fs, db_->dir).TableRoot(r.table));
  auto target = scan::DeltaTable::Open(db_->fs, root, at);
  if (!target.ok()) return target.status().WithContext("RESTORE " + r.table.ToString());
  const auto& target_snap = *(*target)->snapshot();

  delta::Json params = delta::Json::object();
  if (r.target.kind == TimeTravel::Kind::kVersion) {
    params["version"] = std::to_string(target_snap.version());
    params["timestamp"] = nullptr;
  } else {
    params["version"] = nullptr;
    params["timestamp"] = target_value.ToString();
  }
  ASSIGN_OR_RETURN(TableWrite * write, BeginTableWrite(r.table, "RESTORE", params));
  auto metrics = table::StageRestore(write->txn, *db_->fs, *write->table->snapshot(), target_snap);
  if (!metrics.ok()) {
    AbortTableWrite(write, metrics.status());
    return metrics.status();
  }
  RETURN_NOT_OK(EndTableWrite(write).status());
  ResultRows rows;
  for (const char* c : {"table_size_after_restore", "num_of_files_after_restore", "num_removed_files",
                        "num_restored_files", "removed_files_size", "restored_files_size"}) {
    rows.AddColumn(c, columnar::Int64());
  }
  const table::RestoreMetrics& m = *metrics;
  rows.AddRow({columnar::Value::Int64(m.table_size_after_restore), columnar::Value::Int64(m.num_of_files_after_restore),
               columnar::Value::Int64(m.num_removed_files), columnar::Value::Int64(m.num_restored_files),
               columnar::Value::Int64(m.removed_files_size), columnar::Value::Int64(m.restored_files_size)});
  return rows.Build();
}

}  // namespace shoal::sql
