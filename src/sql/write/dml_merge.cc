// MERGE INTO (sql/write/dml.h): a join of the source with the target's rows (with row addresses),
// then per joined row the first WHEN clause of its kind whose condition holds.
#include <strings.h>

#include <algorithm>
#include <chrono>

#include "delta/table_path.h"
#include "expr/evaluate.h"
#include "sql/parser/token.h"
#include "sql/write/dml.h"
#include "sql/write/dml_binding.h"
#include "sql/functions/query_log_recorder.h"
#include "sql/write/write_column_rules.h"
#include "table/change_data_writer.h"
#include "table/data_file_writer.h"
#include "table/row_changes.h"
#include "table/row_id_columns.h"
#include "txn/row_id_remap.h"

namespace shoal::sql {
namespace {

constexpr const char* kMultipleMatch =
    "Cannot perform Merge as multiple source rows matched and attempted to modify the same target row in the "
    "Delta table in possibly conflicting ways.";

// One WHEN clause, bound over the join output.
struct BoundClause {
  MergeMatch match = MergeMatch::kMatched;
  MergeAction action = MergeAction::kDelete;
  expr::ExprPtr condition;         // null: always
  std::vector<expr::ExprPtr> row;  // UPDATE / INSERT: the new row, one expr per table column
  std::vector<bool> supplied;      // per table column: false for generated columns to compute
  std::vector<bool> identity;      // INSERT: per table column, true where it gets identity values
};

// Positions of the source's columns by name.
Result<int> SourceColumn(const LogicalOperator& source, const std::string& name, const char* what) {
  for (size_t j = 0; j < source.columns.size(); ++j) {
    if (NameEq(source.columns[j].name, name)) return static_cast<int>(j);
  }
  return Status::Binder(std::string("cannot resolve ") + name + " in " + what + ": the source has no column " + name);
}

// An equi-join conjunct of the ON condition: `target` over table columns, `source` over the
// join output's source columns.
struct MergeKey {
  expr::ExprPtr target;
  expr::ExprPtr source;
};

// Beyond this many distinct source keys the MERGE records a whole-table read instead.
constexpr size_t kMaxReadKeys = 1024;

// `key.target IN (the distinct non-NULL source key values)`; a never-true predicate for an empty
// source; null when there are too many keys.
Result<expr::ExprPtr> SourceKeysIn(const MergeKey& key, const std::vector<columnar::BatchPtr>& batches,
                                   int marker, expr::EvalContext& ctx) {
  std::vector<columnar::Value> values;
  for (const auto& batch : batches) {
    if (batch->num_rows == 0) continue;
    ASSIGN_OR_RETURN(columnar::VectorPtr v, expr::Evaluate(*key.source, *batch, ctx));
    const columnar::Vector& mark = *batch->columns[static_cast<size_t>(marker)];
    for (int64_t i = 0; i < batch->num_rows; ++i) {
      if (!mark.IsValid(i) || !v->IsValid(i)) continue;
      values.push_back(columnar::Value::FromVector(*v, i));
    }
    std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.Compare(b) < 0; });
    values.erase(std::unique(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.Compare(b) == 0; }),
                 values.end());
    if (values.size() > kMaxReadKeys) return expr::ExprPtr();
  }
  if (values.empty()) return expr::Literal(columnar::Value::Boolean(false));
  std::vector<expr::ExprPtr> list;
  list.reserve(values.size());
  for (auto& v : values) list.push_back(expr::Literal(std::move(v)));
  return expr::In(key.target, std::move(list));
}

Status RecordMergeRead(txn::Transaction* txn, std::vector<expr::ExprPtr> conjuncts, expr::ExprPtr keys) {
  if (keys) conjuncts.push_back(std::move(keys));
  expr::ExprPtr p = conjuncts[0];
  if (conjuncts.size() > 1) {
    ASSIGN_OR_RETURN(p, expr::And(conjuncts));
  }
  txn->ReadPredicate(p, p->ToString());
  return Status::OK();
}

// Records the ON's target-only conjuncts (over table columns) in the query log of a table with
// shoal.localSort.auto. They are evaluated in the join, not pushed into the target scan, which
// therefore reads the whole table; the scan itself is not logged (its DmlTargetSource has no
// log file system), so the statement counts once. Never fails the statement.
void LogMergeTargetFilter(const DmlTarget& target, const std::vector<expr::ExprPtr>& target_only,
                          const DmlCounts& counts) {
  if (target_only.empty() || !target.fs || !QueryLogEnabled(*target.table)) return;
  const scan::TableSchema& schema = *target.table->schema();
  std::vector<int> columns(schema.columns.size());
  for (size_t i = 0; i < columns.size(); ++i) columns[i] = static_cast<int>(i);
  table::QueryLogEntry e;
  e.shape = ShapeOfFilters(target_only, columns, schema);
  if (e.shape.terms.empty()) return;
  e.rows_total = target.table->EstimatedRows().value_or(0);
  e.rows_out = std::min(e.rows_total, counts.updated + counts.deleted);  // matched rows changed
  const delta::FileList& files = target.table->snapshot()->file_list();
  for (size_t i = 0; i < files.size(); ++i) e.bytes_read += files.file_size(i);
  e.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
  (void)table::AppendQueryLogEntry(*target.fs, target.table->snapshot()->table_root(), e);
}

}  // namespace

Result<DmlCounts> ExecuteMerge(const MergeStatement& s, const DmlTarget& target, DmlEnvironment& env) {
  DmlBinder binder(env.catalog, env.ctx);
  const scan::TableSchema& schema = *target.table->schema();
  const int n = static_cast<int>(schema.columns.size());
  std::string alias = s.target_alias;
  if (alias.empty() && !s.target.parts.empty()) alias = s.target.parts.back();

  // ---- bind ON, the clause conditions and values over `source CROSS JOIN target`
  std::vector<const ParsedExpression*> items{s.on.get()};
  struct ItemRefs {
    int condition = -1;
    std::vector<int> values;     // per assignment / insert value
    std::vector<int> columns;    // target column per value
  };
  std::vector<ItemRefs> refs(s.clauses.size());
  ASSIGN_OR_RETURN(WriteColumnRules rules,
                   WriteColumnRules::Make(target.txn->metadata(), schema.schema, env.ctx->statement_timestamp));
  std::vector<ExprPtr> default_values;
  bool has_not_matched = false, has_by_source = false;
  for (size_t k = 0; k < s.clauses.size(); ++k) {
    const MergeClause& c = s.clauses[k];
    has_not_matched = has_not_matched || c.match == MergeMatch::kNotMatchedByTarget;
    has_by_source = has_by_source || c.match == MergeMatch::kNotMatchedBySource;
    if (c.condition) {
      refs[k].condition = static_cast<int>(items.size());
      items.push_back(c.condition.get());
    }
    if (c.action == MergeAction::kUpdate) {
      if (c.match == MergeMatch::kNotMatchedByTarget) return Status::Binder("WHEN NOT MATCHED clauses can only INSERT");
      std::vector<bool> seen(static_cast<size_t>(n), false);
      for (const Assignment& a : c.assignments) {
        ASSIGN_OR_RETURN(int col, AssignedColumn(a, schema.schema, alias));
        if (seen[static_cast<size_t>(col)]) {
          return Status::Binder("Multiple assignments to same column \"" + schema.columns[col].name + "\"");
        }
        seen[static_cast<size_t>(col)] = true;
        const ParsedExpression* value = a.value.get();
        ASSIGN_OR_RETURN(bool keep, rules.ResolveUpdateValue(static_cast<size_t>(col), &value, &default_values));
        if (!keep) continue;
        refs[k].columns.push_back(col);
        refs[k].values.push_back(static_cast<int>(items.size()));
        items.push_back(value);
      }
    } else if (c.action == MergeAction::kInsert) {
      if (c.match != MergeMatch::kNotMatchedByTarget) return Status::Binder("only WHEN NOT MATCHED clauses can INSERT");
      if (c.insert_columns.empty()) {
        if (static_cast<int>(c.insert_values.size()) != n) {
          return Status::Binder("INSERT in MERGE has " + std::to_string(c.insert_values.size()) +
                                " values but the target table has " + std::to_string(n) + " columns");
        }
        for (int col = 0; col < n; ++col) refs[k].columns.push_back(col);
      } else {
        if (c.insert_columns.size() != c.insert_values.size()) {
          return Status::Binder("INSERT in MERGE names " + std::to_string(c.insert_columns.size()) +
                                " columns but has " + std::to_string(c.insert_values.size()) + " values");
        }
        std::vector<bool> seen(static_cast<size_t>(n), false);
        for (const std::string& name : c.insert_columns) {
          int col = schema.schema.Find(name);
          if (col < 0) return Status::Binder("Referenced column \"" + name + "\" not found in the target table");
          if (seen[static_cast<size_t>(col)]) return Status::Binder("Column \"" + name + "\" specified twice in INSERT");
          seen[static_cast<size_t>(col)] = true;
          refs[k].columns.push_back(col);
        }
      }
      std::vector<int> columns;
      for (size_t v = 0; v < c.insert_values.size(); ++v) {
        int col = refs[k].columns[v];
        const ParsedExpression* value = c.insert_values[v].get();
        ASSIGN_OR_RETURN(bool keep, rules.ResolveInsertValue(static_cast<size_t>(col), &value, &default_values));
        if (!keep) continue;
        columns.push_back(col);
        refs[k].values.push_back(static_cast<int>(items.size()));
        items.push_back(value);
      }
      refs[k].columns = std::move(columns);
    } else if ((c.action == MergeAction::kUpdateStar || c.action == MergeAction::kDelete) &&
               c.match == MergeMatch::kNotMatchedByTarget) {
      return Status::Binder("WHEN NOT MATCHED clauses can only INSERT");
    } else if (c.action == MergeAction::kInsertStar && c.match != MergeMatch::kNotMatchedByTarget) {
      return Status::Binder("only WHEN NOT MATCHED clauses can INSERT");
    } else if (c.action == MergeAction::kUpdateStar) {
      // UPDATE SET * assigns every target column, so also the identity ones (as in Delta).
      for (size_t col = 0; col < static_cast<size_t>(n); ++col) {
        if (rules.identity().Is(col)) return rules.identity().UpdateNotSupported(col);
      }
    }
  }
  std::vector<expr::ExprPtr> bound;
  ASSIGN_OR_RETURN(LogicalPtr source, binder.BindOnJoin(*s.source, s.target, s.target_alias, items, &bound));
  const int L = static_cast<int>(source->columns.size());

  // ---- join output: source columns, a non-NULL source marker, target columns, row address
  const int marker = L, tbase = L + 1, fid = L + 1 + n, rid = L + 2 + n;
  std::vector<int> shift(static_cast<size_t>(L + n));
  for (int j = 0; j < L + n; ++j) shift[static_cast<size_t>(j)] = j < L ? j : j + 1;
  for (auto& e : bound) {
    ASSIGN_OR_RETURN(e, expr::RemapColumns(e, shift));
  }
  ASSIGN_OR_RETURN(expr::ExprPtr on, AsCondition(bound[0], "MERGE ON condition"));

  std::vector<BoundClause> clauses(s.clauses.size());
  for (size_t k = 0; k < s.clauses.size(); ++k) {
    const MergeClause& c = s.clauses[k];
    BoundClause& b = clauses[k];
    b.match = c.match;
    b.action = c.action;
    if (refs[k].condition >= 0) {
      ASSIGN_OR_RETURN(b.condition, AsCondition(bound[static_cast<size_t>(refs[k].condition)], "MERGE clause condition"));
    }
    if (c.action == MergeAction::kDelete) continue;
    const bool insert = c.action == MergeAction::kInsert || c.action == MergeAction::kInsertStar;
    b.row.resize(static_cast<size_t>(n));
    b.supplied.assign(static_cast<size_t>(n), false);
    b.identity.assign(static_cast<size_t>(n), false);
    for (int col = 0; col < n; ++col) {
      const auto& f = schema.schema.fields[static_cast<size_t>(col)];
      const bool identity = insert && rules.identity().Is(static_cast<size_t>(col));
      if (c.action == MergeAction::kUpdateStar || c.action == MergeAction::kInsertStar) {
        auto j = SourceColumn(*source, f.name, insert ? "INSERT *" : "UPDATE SET *");
        if (!j.ok() && (rules.IsGenerated(static_cast<size_t>(col)) || identity)) {
          b.row[col] = expr::Literal(columnar::Value::Null(f.type));  // computed or generated below
          b.identity[static_cast<size_t>(col)] = identity;
          continue;
        }
        RETURN_NOT_OK(j.status());
        if (identity) RETURN_NOT_OK(rules.identity().CheckExplicitInsert(static_cast<size_t>(col)));
        const auto& sf = source->columns[static_cast<size_t>(*j)];
        ASSIGN_OR_RETURN(b.row[col], CastTo(expr::ColumnRef(*j, sf.type, sf.name, true), f.type));
        b.supplied[static_cast<size_t>(col)] = true;
      } else if (insert) {
        b.row[col] = expr::Literal(rules.OmittedValue(static_cast<size_t>(col)));
        b.identity[static_cast<size_t>(col)] = identity;  // unless a value is supplied below
      } else {
        b.row[col] = expr::ColumnRef(tbase + col, f.type, f.name, true);
      }
    }
    for (size_t v = 0; v < refs[k].values.size(); ++v) {
      int col = refs[k].columns[v];
      ASSIGN_OR_RETURN(b.row[col], CastTo(bound[static_cast<size_t>(refs[k].values[v])],
                                          schema.schema.fields[static_cast<size_t>(col)].type));
      b.supplied[static_cast<size_t>(col)] = true;
      b.identity[static_cast<size_t>(col)] = false;
    }
  }

  // ---- read set: the ON condition's target-only conjuncts and, without NOT MATCHED BY SOURCE,
  // the target side of an equi-join conjunct IN the source's key values (recorded after the
  // join, which then keeps every source row); else the whole table.
  std::vector<expr::ExprPtr> target_only;
  MergeKey key;
  {
    std::vector<expr::ExprPtr> conj;
    SplitConjuncts(on, &conj);
    std::vector<int> to_table(static_cast<size_t>(rid + 1), -1);
    for (int col = 0; col < n; ++col) to_table[static_cast<size_t>(tbase + col)] = col;
    auto only_target = [&](const expr::Expr& e) {
      auto cols = expr::CollectColumns(e);
      bool only = !cols.empty();
      for (int x : cols) only = only && x >= tbase && x < fid;
      return only;
    };
    auto only_source = [&](const expr::Expr& e) {
      auto cols = expr::CollectColumns(e);
      bool only = !cols.empty();
      for (int x : cols) only = only && x < L;
      return only;
    };
    for (const auto& c : conj) {
      if (only_target(*c)) {
        ASSIGN_OR_RETURN(auto r, expr::RemapColumns(c, to_table));
        target_only.push_back(r);
        continue;
      }
      bool eq = c->kind == expr::ExprKind::kFunction && c->name == "=" && c->args.size() == 2;
      if (has_by_source || key.source || !eq) continue;
      for (int side = 0; side < 2; ++side) {
        const expr::ExprPtr& t = c->args[static_cast<size_t>(side)];
        const expr::ExprPtr& src = c->args[static_cast<size_t>(1 - side)];
        if (key.source || !only_target(*t) || !only_source(*src)) continue;
        ASSIGN_OR_RETURN(key.target, expr::RemapColumns(t, to_table));
        key.source = src;
      }
    }
    if (has_by_source || (target_only.empty() && !key.source)) {
      target.txn->ReadWholeTable();
    } else if (!key.source) {
      RETURN_NOT_OK(RecordMergeRead(target.txn, target_only, nullptr));
    }
  }

  // ---- the join
  std::vector<expr::ExprPtr> src_cols;
  std::vector<std::string> src_names;
  for (int j = 0; j < L; ++j) {
    const auto& f = source->columns[static_cast<size_t>(j)];
    src_cols.push_back(expr::ColumnRef(j, f.type, f.name, f.nullable));
    src_names.push_back(f.name);
  }
  src_cols.push_back(expr::Literal(columnar::Value::Boolean(true)));
  src_names.push_back("__shoal_source_row");
  LogicalPtr left = MakeProject(std::move(source), std::move(src_cols), std::move(src_names));
  auto tsource = std::make_shared<DmlTargetSource>(target.table, target.table->snapshot()->table_root());
  LogicalPtr right = MakeTargetGet(tsource);
  auto join = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
  // With a key, unmatched source rows are kept too (no clause applies to them without WHEN NOT
  // MATCHED) so that all of the source's key values reach the read set.
  join->join_type = has_not_matched || key.source
                        ? (has_by_source ? LogicalJoinType::kFull : LogicalJoinType::kLeft)
                        : (has_by_source ? LogicalJoinType::kRight : LogicalJoinType::kInner);
  for (const auto& f : left->columns) join->columns.push_back({f.name, f.type, true});
  for (const auto& f : right->columns) join->columns.push_back({f.name, f.type, true});
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  RETURN_NOT_OK(AddJoinCondition(join.get(), on));
  ASSIGN_OR_RETURN(auto batches, binder.Run(std::move(join)));

  // ---- clauses, row by row in order of the clauses
  table::DataFileWriterOptions wo;
  ASSIGN_OR_RETURN(wo.check, binder.BindChecks(s.target, target.txn->metadata()));
  // Row tracking: updated rows keep their ids (materialized row id column); inserted rows get
  // fresh ones.
  ASSIGN_OR_RETURN(auto with_ids, txn::MetadataWithRowIdColumns(target.table->snapshot()->protocol(),
                                                                target.txn->metadata()));
  std::optional<table::RowIdLookup> row_ids;
  if (with_ids) {
    row_ids.emplace(target.fs, target.table->snapshot()->table_root(), *with_ids, &target.table->snapshot()->files());
  }
  ASSIGN_OR_RETURN(auto writer, table::DataFileWriter::Make(target.fs, target.table->snapshot()->table_root(),
                                                            with_ids ? *with_ids : target.txn->metadata(),
                                                            std::move(wo)));
  auto out_schema = std::make_shared<columnar::Schema>(writer->schema());
  auto with_ids_schema = out_schema;
  if (row_ids) {
    out_schema = std::make_shared<columnar::Schema>(writer->schema());
    out_schema->fields.resize(out_schema->fields.size() - 2);  // RowIdLookup appends the ids
  }
  // Several source rows may match one target row only when the sole MATCHED clause is an
  // unconditional DELETE (as in Delta).
  int matched_clauses = 0;
  bool only_unconditional_delete = false;
  for (const auto& c : clauses) {
    if (c.match != MergeMatch::kMatched) continue;
    ++matched_clauses;
    only_unconditional_delete = c.action == MergeAction::kDelete && !c.condition;
  }
  const bool duplicates_ok = matched_clauses == 1 && only_unconditional_delete;

  // Change data feed: deleted rows, both images of updated rows and inserted rows.
  std::unique_ptr<table::ChangeDataWriter> changes;
  if (table::ChangeDataFeedEnabled(target.txn->metadata())) {
    ASSIGN_OR_RETURN(changes, table::ChangeDataWriter::Make(target.fs, target.table->snapshot()->table_root(),
                                                            target.txn->metadata()));
  }
  std::vector<uint32_t> fresh;  // rows of `sel` not already modified by an earlier source row

  // Identity values: one sequence per column, shared by all INSERT clauses (values stay unique).
  std::vector<int64_t> identity_used(static_cast<size_t>(n), 0);
  table::FilePositions read, modified;
  DmlCounts counts;
  expr::EvalContext ectx(env.ctx->statement_timestamp);
  std::vector<uint32_t> undecided[3], sel, rest;
  for (const auto& batch : batches) {
    if (batch->num_rows == 0) continue;
    const columnar::Vector& mark = *batch->columns[static_cast<size_t>(marker)];
    const columnar::Vector& ids = *batch->columns[static_cast<size_t>(fid)];
    const columnar::Vector& rows = *batch->columns[static_cast<size_t>(rid)];
    for (auto& u : undecided) u.clear();
    for (int64_t i = 0; i < batch->num_rows; ++i) {
      bool src = mark.IsValid(i), tgt = ids.IsValid(i);
      int kind = src && tgt ? 0 : (src ? 1 : 2);
      undecided[kind].push_back(static_cast<uint32_t>(i));
    }
    table::CollectRowAddresses(ids, rows, nullptr, batch->num_rows, &read);
    for (const BoundClause& c : clauses) {
      auto& u = undecided[c.match == MergeMatch::kMatched ? 0 : (c.match == MergeMatch::kNotMatchedByTarget ? 1 : 2)];
      if (u.empty()) continue;
      if (c.condition) {
        ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilterOn(*c.condition, *batch, u, ectx, &sel));
        (void)k;
        rest.clear();
        size_t j = 0;
        for (uint32_t r : u) {
          if (j < sel.size() && sel[j] == r) {
            ++j;
          } else {
            rest.push_back(r);
          }
        }
        u.swap(rest);
      } else {
        sel.swap(u);
        u.clear();
      }
      if (sel.empty()) continue;
      const int64_t m = static_cast<int64_t>(sel.size());
      if (c.action != MergeAction::kInsert && c.action != MergeAction::kInsertStar) {
        const int64_t* fids = ids.data<int64_t>();
        const int64_t* rws = rows.data<int64_t>();
        fresh.clear();
        for (uint32_t r : sel) {
          delta::DeletionVector& dv = modified[fids[r]];
          if (dv.Contains(static_cast<uint64_t>(rws[r]))) {
            if (duplicates_ok) continue;
            return Status::Constraint(kMultipleMatch);
          }
          dv.Add(static_cast<uint64_t>(rws[r]));
          fresh.push_back(r);
          (c.action == MergeAction::kDelete ? counts.deleted : counts.updated) += 1;
        }
        if (changes) {
          RETURN_NOT_OK(changes->Write(*batch, static_cast<size_t>(tbase), fresh.data(),
                                       static_cast<int64_t>(fresh.size()),
                                       c.action == MergeAction::kDelete ? table::ChangeType::kDelete
                                                                        : table::ChangeType::kUpdatePreimage));
        }
      } else {
        counts.inserted += m;
      }
      if (c.action == MergeAction::kDelete) continue;
      columnar::BatchPtr picked = columnar::GatherBatch(*batch, sel.data(), m);
      std::vector<columnar::VectorPtr> out;
      out.reserve(static_cast<size_t>(n));
      for (const auto& e : c.row) {
        ASSIGN_OR_RETURN(columnar::VectorPtr v, expr::Evaluate(*e, *picked, ectx));
        out.push_back(std::move(v));
      }
      for (size_t col = 0; col < c.identity.size(); ++col) {
        if (!c.identity[col]) continue;
        ASSIGN_OR_RETURN(out[col], IdentityValues(rules.identity().Sequence(col), identity_used[col], m,
                                                  schema.schema.fields[col].name));
        identity_used[col] += m;
      }
      columnar::RecordBatch new_rows(out_schema, std::move(out), m);
      RETURN_NOT_OK(rules.ApplyGenerated(&new_rows, c.supplied, ectx));
      if (changes) {
        const bool insert = c.action == MergeAction::kInsert || c.action == MergeAction::kInsertStar;
        RETURN_NOT_OK(changes->Write(new_rows, 0, nullptr, m,
                                     insert ? table::ChangeType::kInsert : table::ChangeType::kUpdatePostimage));
      }
      if (row_ids) {
        ASSIGN_OR_RETURN(new_rows, row_ids->Append(new_rows, *picked->columns[static_cast<size_t>(fid)],
                                                   *picked->columns[static_cast<size_t>(rid)], with_ids_schema));
      }
      RETURN_NOT_OK(writer->Write(new_rows));
    }
  }
  ASSIGN_OR_RETURN(std::vector<delta::AddFile> adds, writer->Finish());
  for (delta::AddFile& a : adds) {
    ASSIGN_OR_RETURN(std::string path, delta::ResolveTablePath(target.table->snapshot()->table_root(), a.path));
    target.staged_files->push_back(std::move(path));
    target.txn->AddFile(std::move(a));
  }
  if (changes) {
    RETURN_NOT_OK(changes->Stage(target.table->snapshot()->table_root(), target.txn, target.staged_files));
  }
  // Identity high-water marks move in the same commit, as INSERT's.
  if (std::any_of(identity_used.begin(), identity_used.end(), [](int64_t u) { return u > 0; })) {
    ASSIGN_OR_RETURN(delta::Metadata updated,
                     rules.identity().WithHighWaterMarks(target.txn->metadata(), identity_used));
    target.txn->UpdateMetadata(std::move(updated));
    target.txn->SetGeneratesIdentityValues(true);
  }
  if (key.source) {
    ASSIGN_OR_RETURN(expr::ExprPtr keys, SourceKeysIn(key, batches, marker, ectx));
    if (keys) {
      RETURN_NOT_OK(RecordMergeRead(target.txn, target_only, keys));
    } else {
      target.txn->ReadWholeTable();
    }
  }
  RETURN_NOT_OK(table::RecordRowReads(*target.table, target.txn, read));
  ASSIGN_OR_RETURN(table::RowDeleteStats st,
                   table::StageRowDeletes(target.fs, *target.table, target.txn, modified, target.staged_files));
  (void)st;
  LogMergeTargetFilter(target, target_only, counts);
  return counts;
}

}  // namespace shoal::sql
