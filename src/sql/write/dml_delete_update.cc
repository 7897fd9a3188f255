// DELETE and UPDATE (sql/write/dml.h).
#include <strings.h>

#include "delta/table_path.h"
#include "expr/evaluate.h"
#include "scan/delta_scan.h"
#include "scan/partition_values.h"
#include "sql/write/dml.h"
#include "sql/write/dml_binding.h"
#include "sql/write/write_column_rules.h"
#include "table/change_data_writer.h"
#include "table/data_file_writer.h"
#include "table/row_changes.h"
#include "table/row_id_columns.h"
#include "txn/row_id_remap.h"

namespace shoal::sql {
namespace {

std::string EffectiveAlias(const std::string& alias, const TableName& name) {
  if (!alias.empty()) return alias;
  return name.parts.empty() ? std::string() : name.parts.back();
}

bool OnlyPartitionColumns(const expr::Expr& e, const scan::TableSchema& t) {
  for (int c : expr::CollectColumns(e)) {
    if (c < 0 || c >= static_cast<int>(t.columns.size()) || !t.columns[c].is_partition)
      return false;
  }
  return true;
}

// The files whose partition values satisfy `pred` (which refers to partition columns only).
Result<std::vector<int64_t>> FilesMatchingPartitions(const scan::DeltaTable& table,
                                                     const expr::ExprPtr& pred,
                                                     expr::EvalContext& ctx) {
  const scan::TableSchema& t = *table.schema();
  std::vector<int64_t> out;
  const auto& files = table.snapshot()->files();
  auto schema = std::make_shared<columnar::Schema>(t.schema);
  std::vector<uint32_t> sel;
  for (size_t id = 0; id < files.size(); ++id) {
    if (!table.Holds(id)) continue;
    std::vector<columnar::VectorPtr> cols;
    for (size_t c = 0; c < t.columns.size(); ++c) {
      const scan::TableColumn& col = t.columns[c];
      if (!col.is_partition) {
        cols.push_back(columnar::Vector::MakeNull(col.type, 1));
        continue;
      }
      ASSIGN_OR_RETURN(columnar::Value v, scan::PartitionValueOf(files[id], col));
      cols.push_back(v.Broadcast(1));
    }
    columnar::RecordBatch one(schema, std::move(cols), 1);
    ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*pred, one, ctx, &sel));
    if (k > 0) out.push_back(static_cast<int64_t>(id));
  }
  return out;
}

// Adds the data files `writer` wrote to the transaction.
Status StageAdds(table::DataFileWriter* writer, const DmlTarget& target) {
  ASSIGN_OR_RETURN(std::vector<delta::AddFile> adds, writer->Finish());
  for (delta::AddFile& a : adds) {
    ASSIGN_OR_RETURN(std::string path,
                     delta::ResolveTablePath(target.table->snapshot()->table_root(), a.path));
    target.staged_files->push_back(std::move(path));
    target.txn->AddFile(std::move(a));
  }
  return Status::OK();
}

// The change data writer of a statement on a table with the change data feed on, else null.
Result<std::unique_ptr<table::ChangeDataWriter>> ChangeWriterFor(const DmlTarget& target) {
  if (!table::ChangeDataFeedEnabled(target.txn->metadata())) return std::unique_ptr<table::ChangeDataWriter>();
  return table::ChangeDataWriter::Make(target.fs, target.table->snapshot()->table_root(), target.txn->metadata());
}

// The table's columns as expressions (the rows as read: pre-images of a change).
void AppendTableColumns(const scan::TableSchema& schema, std::vector<expr::ExprPtr>* exprs,
                        std::vector<std::string>* names) {
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    const auto& f = schema.schema.fields[c];
    exprs->push_back(expr::ColumnRef(static_cast<int>(c), f.type, f.name, f.nullable));
    names->push_back(f.name);
  }
}

// Records the statement's predicate (or the whole table) in the read set.
void RecordPredicate(const DmlTarget& target, const expr::ExprPtr& where) {
  if (where) {
    target.txn->ReadPredicate(where, where->ToString());
  } else {
    target.txn->ReadWholeTable();
  }
}

// Scans the target's rows matching `where` and returns, per batch, `exprs` evaluated on them
// followed by the two row-address columns.
Result<std::vector<columnar::BatchPtr>> ScanMatched(const DmlTarget& target, DmlBinder& binder,
                                                    const expr::ExprPtr& where,
                                                    std::vector<expr::ExprPtr> exprs,
                                                    std::vector<std::string> names) {
  auto source =
      std::make_shared<DmlTargetSource>(target.table, target.table->snapshot()->table_root(), target.fs);
  const int fid = source->file_id_column();
  LogicalPtr plan = MakeTargetGet(source);
  if (where) plan = MakeFilter(std::move(plan), where);
  exprs.push_back(expr::ColumnRef(fid, columnar::Int64(), scan::kFileIdColumn, false));
  exprs.push_back(expr::ColumnRef(fid + 1, columnar::Int64(), scan::kRowIndexColumn, false));
  names.push_back(scan::kFileIdColumn);
  names.push_back(scan::kRowIndexColumn);
  plan = MakeProject(std::move(plan), std::move(exprs), std::move(names));
  return binder.Run(std::move(plan));
}

}  // namespace

Result<DmlCounts> ExecuteDelete(const DeleteStatement& s, const DmlTarget& target,
                                DmlEnvironment& env) {
  DmlBinder binder(env.catalog, env.ctx);
  const scan::TableSchema& schema = *target.table->schema();
  expr::ExprPtr where;
  if (s.where) {
    std::vector<expr::ExprPtr> none;
    RETURN_NOT_OK(binder.BindOnTable(s.table, s.alias, {}, s.where.get(), &none, &where));
  }
  RecordPredicate(target, where);
  DmlCounts counts;
  expr::EvalContext ectx(env.ctx->statement_timestamp);
  ASSIGN_OR_RETURN(auto changes, ChangeWriterFor(target));
  // Metadata-only: no WHERE, or a WHERE on partition columns only, removes whole files —
  // when the log knows how many rows they hold. Not with the change data feed: the deleted
  // rows go into change data files, as every other change of the transaction's commit.
  if (!changes && (!where || OnlyPartitionColumns(*where, schema))) {
    std::vector<int64_t> ids;
    if (where) {
      ASSIGN_OR_RETURN(ids, FilesMatchingPartitions(*target.table, where, ectx));
    } else {
      for (size_t i = 0; i < target.table->snapshot()->files().size(); ++i) {
        if (target.table->Holds(i)) ids.push_back(static_cast<int64_t>(i));
      }
    }
    bool known = true;
    for (int64_t id : ids) {
      const delta::AddFile& f = target.table->snapshot()->files()[static_cast<size_t>(id)];
      known =
          known && table::LiveRows(f) >= 0 && !target.txn->write_set().row_deletes.count(f.path);
    }
    if (known) {
      ASSIGN_OR_RETURN(counts.deleted, table::StageFileRemoves(*target.table, target.txn, ids));
      return counts;
    }
  }
  std::vector<expr::ExprPtr> row;
  std::vector<std::string> names;
  if (changes) AppendTableColumns(schema, &row, &names);
  const size_t addr = row.size();
  ASSIGN_OR_RETURN(auto batches, ScanMatched(target, binder, where, std::move(row), std::move(names)));
  table::FilePositions matched;
  for (const auto& b : batches) {
    table::CollectRowAddresses(*b->columns[addr], *b->columns[addr + 1], nullptr, b->num_rows, &matched);
    if (changes) RETURN_NOT_OK(changes->Write(*b, 0, nullptr, b->num_rows, table::ChangeType::kDelete));
  }
  RETURN_NOT_OK(table::RecordRowReads(*target.table, target.txn, matched));
  if (changes) {
    RETURN_NOT_OK(changes->Stage(target.table->snapshot()->table_root(), target.txn, target.staged_files));
  }
  ASSIGN_OR_RETURN(
      table::RowDeleteStats st,
      table::StageRowDeletes(target.fs, *target.table, target.txn, matched, target.staged_files));
  counts.deleted = st.rows_deleted;
  return counts;
}

Result<DmlCounts> ExecuteUpdate(const UpdateStatement& s, const DmlTarget& target,
                                DmlEnvironment& env) {
  DmlBinder binder(env.catalog, env.ctx);
  const scan::TableSchema& schema = *target.table->schema();
  const std::string alias = EffectiveAlias(s.alias, s.table);
  const size_t n = schema.columns.size();
  std::vector<const ParsedExpression*> items;
  std::vector<int> assignment_of(n, -1);
  ASSIGN_OR_RETURN(WriteColumnRules rules,
                   WriteColumnRules::Make(target.txn->metadata(), schema.schema, env.ctx->statement_timestamp));
  std::vector<ExprPtr> default_values;
  for (size_t i = 0; i < s.assignments.size(); ++i) {
    ASSIGN_OR_RETURN(int c, AssignedColumn(s.assignments[i], schema.schema, alias));
    if (assignment_of[c] >= 0) {
      return Status::Binder("Multiple assignments to same column \"" + schema.columns[c].name +
                            "\"");
    }
    const ParsedExpression* value = s.assignments[i].value.get();
    ASSIGN_OR_RETURN(bool keep, rules.ResolveUpdateValue(static_cast<size_t>(c), &value, &default_values));
    if (!keep) continue;
    assignment_of[c] = static_cast<int>(items.size());
    items.push_back(value);
  }
  std::vector<expr::ExprPtr> values;
  expr::ExprPtr where;
  RETURN_NOT_OK(binder.BindOnTable(s.table, s.alias, items, s.where.get(), &values, &where));
  std::vector<expr::ExprPtr> row;
  std::vector<std::string> names;
  for (size_t c = 0; c < n; ++c) {
    const auto& f = schema.schema.fields[c];
    if (assignment_of[c] >= 0) {
      ASSIGN_OR_RETURN(expr::ExprPtr v,
                       CastTo(values[static_cast<size_t>(assignment_of[c])], f.type));
      row.push_back(std::move(v));
    } else {
      row.push_back(expr::ColumnRef(static_cast<int>(c), f.type, f.name, f.nullable));
    }
    names.push_back(f.name);
  }
  RecordPredicate(target, where);
  // With the change data feed the scan also returns the rows as they were (pre-images).
  ASSIGN_OR_RETURN(auto changes, ChangeWriterFor(target));
  if (changes) AppendTableColumns(schema, &row, &names);
  const size_t addr = row.size();
  ASSIGN_OR_RETURN(auto batches,
                   ScanMatched(target, binder, where, std::move(row), std::move(names)));

  table::DataFileWriterOptions wo;
  ASSIGN_OR_RETURN(wo.check, binder.BindChecks(s.table, target.txn->metadata()));
  // Row tracking: the new row versions keep their rows' ids (materialized row id column).
  const std::string& root = target.table->snapshot()->table_root();
  ASSIGN_OR_RETURN(auto with_ids, txn::MetadataWithRowIdColumns(target.table->snapshot()->protocol(),
                                                                target.txn->metadata()));
  std::optional<table::RowIdLookup> row_ids;
  if (with_ids) row_ids.emplace(target.fs, root, *with_ids, &target.table->snapshot()->files());
  ASSIGN_OR_RETURN(auto writer, table::DataFileWriter::Make(target.fs, root, with_ids ? *with_ids : target.txn->metadata(),
                                                            std::move(wo)));
  std::vector<bool> assigned(n);
  for (size_t c = 0; c < n; ++c) assigned[c] = assignment_of[c] >= 0;
  expr::EvalContext ectx(env.ctx->statement_timestamp);
  auto out_schema = std::make_shared<columnar::Schema>(writer->schema());
  if (row_ids) out_schema->fields.resize(n);  // the rows' schema; RowIdLookup appends the ids
  auto with_ids_schema = std::make_shared<columnar::Schema>(writer->schema());
  table::FilePositions matched;
  DmlCounts counts;
  for (const auto& b : batches) {
    if (b->num_rows == 0) continue;
    table::CollectRowAddresses(*b->columns[addr], *b->columns[addr + 1], nullptr, b->num_rows, &matched);
    std::vector<columnar::VectorPtr> cols(b->columns.begin(),
                                          b->columns.begin() + static_cast<long>(n));
    columnar::RecordBatch rows(out_schema, std::move(cols), b->num_rows);
    RETURN_NOT_OK(rules.ApplyGenerated(&rows, assigned, ectx));
    if (changes) {
      RETURN_NOT_OK(changes->Write(*b, n, nullptr, b->num_rows, table::ChangeType::kUpdatePreimage));
      RETURN_NOT_OK(changes->Write(rows, 0, nullptr, b->num_rows, table::ChangeType::kUpdatePostimage));
    }
    if (row_ids) {
      ASSIGN_OR_RETURN(columnar::RecordBatch tracked,
                       row_ids->Append(rows, *b->columns[addr], *b->columns[addr + 1], with_ids_schema));
      RETURN_NOT_OK(writer->Write(tracked));
    } else {
      RETURN_NOT_OK(writer->Write(rows));
    }
    counts.updated += b->num_rows;
  }
  RETURN_NOT_OK(StageAdds(writer.get(), target));
  if (changes) RETURN_NOT_OK(changes->Stage(root, target.txn, target.staged_files));
  RETURN_NOT_OK(table::RecordRowReads(*target.table, target.txn, matched));
  ASSIGN_OR_RETURN(
      table::RowDeleteStats st,
      table::StageRowDeletes(target.fs, *target.table, target.txn, matched, target.staged_files));
  (void)st;
  return counts;
}

}  // namespace shoal::sql
