// Session handlers for CREATE TABLE [AS SELECT] / CREATE OR REPLACE TABLE, DROP TABLE and
// DESCRIBE (DESCRIBE HISTORY / DETAIL / LAYOUT are dispatched to their own handlers).
#include <algorithm>
#include <cctype>
#include <set>
#include <string_view>

#include "columnar/datetime.h"
#include "delta/json_fields.h"
#include "delta/schema_json.h"
#include "scan/delta_schema.h"
#include "sql/binder/binder.h"
#include "sql/parser/parser.h"
#include "sql/write/column_defaults.h"
#include "sql/session/database_impl.h"
#include "sql/session/key_constraints.h"
#include "sql/write/generated_columns.h"
#include "sql/session/query_result_impl.h"
#include "sql/session/session.h"
#include "table/table_creator.h"

namespace shoal::sql {

namespace {

std::string NormalizeRoot(std::string root) {
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

// Spark's spelling of a type in DESCRIBE: bigint, decimal(10,2), array<int>, struct<a:int>.
std::string SparkTypeName(const columnar::DataType& t) {
  using columnar::TypeId;
  switch (t.id()) {
    case TypeId::kList: return "array<" + SparkTypeName(*t.element()) + ">";
    case TypeId::kMap: return "map<" + SparkTypeName(*t.key()) + "," + SparkTypeName(*t.value()) + ">";
    case TypeId::kStruct: {
      std::string s = "struct<";
      for (size_t i = 0; i < t.children().size(); ++i) {
        s += (i ? "," : "") + t.children()[i].name + ":" + SparkTypeName(*t.children()[i].type);
      }
      return s + ">";
    }
    default: return Lower(t.ToString());
  }
}

// The union of two protocols (a replaced table never downgrades its protocol).
delta::Protocol MergeProtocols(const delta::Protocol& a, const delta::Protocol& b) {
  delta::Protocol p;
  p.min_reader_version = std::max(a.min_reader_version, b.min_reader_version);
  p.min_writer_version = std::max(a.min_writer_version, b.min_writer_version);
  auto merge = [](const std::optional<std::vector<std::string>>& x, const std::optional<std::vector<std::string>>& y) {
    std::set<std::string> all;
    if (x) all.insert(x->begin(), x->end());
    if (y) all.insert(y->begin(), y->end());
    return std::vector<std::string>(all.begin(), all.end());
  };
  if (p.min_reader_version >= 3) p.reader_features = merge(a.reader_features, b.reader_features);
  if (p.min_writer_version >= 7) p.writer_features = merge(a.writer_features, b.writer_features);
  return p;
}

// The columnar schema and Delta extras CREATE TABLE declares.
Status DeclaredSchema(const CreateTableStatement& c, columnar::Schema* schema, table::CreateTableOptions* options) {
  for (const ColumnDefinition& col : c.columns) {
    ASSIGN_OR_RETURN(columnar::TypePtr type, BindTypeName(col.type));
    schema->fields.push_back({col.name, type, !col.not_null});
    table::ColumnSpec spec;
    spec.comment = col.comment;
    if (col.identity) {
      table::IdentitySpec id;
      id.start = col.identity->start.value_or(1);
      id.step = col.identity->increment.value_or(1);
      id.allow_explicit_insert = !col.identity->always;
      spec.identity = id;
    }
    if (col.generated) spec.generation_expression = col.generated->ToString();
    if (col.default_value) {
      if (col.generated || col.identity) {
        return Status::InvalidArgument("column " + col.name + " cannot have both a DEFAULT and a generation expression");
      }
      spec.default_expression = col.default_value->ToString();
    }
    if (spec.comment || spec.identity || spec.generation_expression || spec.default_expression) {
      options->columns[col.name] = spec;
    }
  }
  for (const CheckConstraint& k : c.constraints) {
    options->check_constraints[k.name] = k.expr->ToString();
  }
  // PRIMARY KEY columns are NOT NULL (ANSI SQL; Databricks requires it).
  for (const KeyConstraint& k : c.key_constraints) {
    for (const std::string& name : k.columns) {
      int i = schema->Find(name);
      if (i < 0) return Status::Binder("key constraint column \"" + name + "\" is not a column of the table");
      if (k.kind == KeyConstraint::Kind::kPrimaryKey) schema->fields[static_cast<size_t>(i)].nullable = false;
    }
  }
  std::map<std::string, std::string> generation;
  for (const auto& [name, spec] : options->columns) {
    if (spec.generation_expression) generation[name] = *spec.generation_expression;
    if (spec.default_expression) {
      RETURN_NOT_OK(ValidateDefaultExpression(*spec.default_expression, schema->fields[schema->Find(name)]));
    }
  }
  return ValidateGenerationExpressions(*schema, generation);
}

}  // namespace

Result<QueryResult> Session::RunCreateTable(const Statement& s) {
  const auto& c = s.As<CreateTableStatement>();
  if (in_transaction_) return Status::Transaction("CREATE TABLE cannot run inside a transaction block");
  if (!c.using_format.empty() && Lower(c.using_format) != "delta") {
    return Status::NotSupported("CREATE TABLE USING " + c.using_format + ": only Delta tables are supported");
  }
  if (c.location) return Status::NotSupported("CREATE TABLE … LOCATION: name the table by path, delta.`/path`");
  if (c.as_query && !c.columns.empty()) {
    return Status::InvalidArgument("CREATE TABLE … AS SELECT takes its columns from the query, not a column list");
  }
  Catalog catalog(db_->fs, db_->dir);
  ASSIGN_OR_RETURN(std::string root, catalog.TableRoot(c.name));
  root = NormalizeRoot(root);
  std::string display = c.name.ToString();
  ASSIGN_OR_RETURN(bool exists, db_->fs->Exists(io::JoinPath(root, "_delta_log")));
  if (exists && c.if_not_exists) return QueryResult();
  if (exists && !c.or_replace) return Status::Catalog("Table with name " + display + " already exists!");
  ASSIGN_OR_RETURN(std::optional<ViewDefinition> view, catalog.FindView(c.name));
  if (view) return Status::Catalog(display + " is a view; a table cannot take its name (DROP VIEW first)");

  columnar::Schema schema;
  table::CreateTableOptions options;
  RETURN_NOT_OK(DeclaredSchema(c, &schema, &options));
  options.description = c.comment;
  std::map<std::string, std::string> properties;
  for (const auto& [k, v] : c.properties) properties[k] = v;
  const std::string table_name = c.name.parts.empty() ? std::string("table") : c.name.parts.back();
  for (const KeyConstraint& k : c.key_constraints) {
    RETURN_NOT_OK(AddKeyConstraint(k, table_name, schema, &properties).status());
  }
  if (c.as_query) {
    ExecContext ctx;
    InitContext(&ctx);
    columnar::SchemaPtr qschema;
    ASSIGN_OR_RETURN(PhysicalPtr ignored, PlanQuery(*c.as_query, ctx, &qschema));
    for (const auto& f : qschema->fields) {
      if (f.type->id() == columnar::TypeId::kNull) {
        return Status::InvalidArgument("CREATE TABLE … AS SELECT: column " + f.name + " has no type (NULL); CAST it");
      }
      schema.fields.push_back({f.name, f.type, true});
    }
  }
  std::string meta_name = c.name.IsPath() ? "" : c.name.parts.back();
  if (!exists && !c.as_query) {
    RETURN_NOT_OK(table::CreateTable(db_->fs, root, meta_name, schema, c.partitioned_by, properties, options).status());
    return QueryResult();
  }
  ASSIGN_OR_RETURN(auto actions, table::CreateTableActions(meta_name, schema, c.partitioned_by, properties, options));
  delta::Metadata metadata;
  delta::Protocol protocol;
  for (auto& a : actions) {
    if (auto* m = std::get_if<delta::Metadata>(&a)) metadata = *m;
    if (auto* p = std::get_if<delta::Protocol>(&a)) protocol = *p;
  }
  std::string operation = c.or_replace ? (c.as_query ? "CREATE OR REPLACE TABLE AS SELECT" : "CREATE OR REPLACE TABLE")
                                       : "CREATE TABLE AS SELECT";
  delta::Json params = delta::Json::object();
  params["isManaged"] = "false";
  params["partitionBy"] = delta::JsonText(delta::Json(c.partitioned_by));
  params["properties"] = delta::JsonText(delta::Json(properties));
  if (c.comment) params["description"] = *c.comment;

  TableWrite* w = nullptr;
  bool created_dir = false;
  if (exists) {
    // CREATE OR REPLACE: a new version with the new metadata, every file removed.
    ASSIGN_OR_RETURN(w, BeginTableWrite(c.name, operation, std::move(params)));
    const delta::Snapshot& snap = *w->table->snapshot();
    metadata.id = snap.metadata().id;
    w->txn->ReadWholeTable();
    for (const auto& f : snap.files()) {
      Status st = w->txn->RemoveFile(f);
      if (!st.ok()) {
        AbortTableWrite(w, st);
        return st;
      }
    }
    delta::Protocol merged = MergeProtocols(snap.protocol(), protocol);
    if (!(merged == snap.protocol())) w->txn->UpdateProtocol(merged);
    w->txn->UpdateMetadata(metadata);
  } else {
    // CTAS: create and fill the table in one commit (version 0).
    ASSIGN_OR_RETURN(bool root_exists, db_->fs->Exists(root));
    created_dir = !root_exists;
    RETURN_NOT_OK(db_->fs->CreateDirs(io::JoinPath(root, "_delta_log")));
    StatementWrite sw;
    sw.write = std::make_unique<TableWrite>();
    sw.write->root = root;
    sw.write->display_name = display;
    auto t = txn::Transaction::Begin(db_->fs, root, nullptr,
                                     SqlTransactionOptions(db_->fs, root, operation, std::move(params), std::nullopt));
    if (!t.ok()) {
      if (created_dir) (void)db_->fs->DeleteRecursive(root);
      return t.status();
    }
    sw.own_txn = std::move(*t);
    sw.write->txn = sw.own_txn.get();
    sw.own_txn->UpdateProtocol(protocol);
    sw.own_txn->UpdateMetadata(metadata);
    w = sw.write.get();
    writes_.push_back(std::move(sw));
  }
  int64_t rows = 0;
  if (c.as_query) {
    auto r = WriteQueryInto(w, w->txn->metadata(), *c.as_query, {}, nullptr, false);
    if (!r.ok()) {
      AbortTableWrite(w, r.status());
      if (created_dir) (void)db_->fs->DeleteRecursive(root);
      return r.status();
    }
    rows = *r;
  }
  auto committed = EndTableWrite(w);
  if (!committed.ok()) {
    if (created_dir) {
      // Remove the directory only when no one else created the table meanwhile.
      auto zero = db_->fs->Exists(table::CommitFilePath(root, 0));
      if (zero.ok() && !*zero) (void)db_->fs->DeleteRecursive(root);
    }
    // A loser of a race to create the table gets the commit's ProtocolChangedException (the
    // winner wrote version 0), as Delta answers two writers creating one table.
    return committed.status();
  }
  if (!c.as_query) return QueryResult();
  return InsertedRowsResult(rows);
}

Result<QueryResult> Session::RunDropTable(const Statement& s) {
  const auto& d = s.As<DropTableStatement>();
  if (in_transaction_) return Status::Transaction("DROP TABLE cannot run inside a transaction block");
  Catalog catalog(db_->fs, db_->dir);
  ASSIGN_OR_RETURN(std::string root, catalog.TableRoot(d.name));
  root = NormalizeRoot(root);
  ASSIGN_OR_RETURN(bool exists, db_->fs->Exists(io::JoinPath(root, "_delta_log")));
  if (!exists) {
    ASSIGN_OR_RETURN(std::optional<ViewDefinition> view, catalog.FindView(d.name));
    if (view) return Status::Catalog(d.name.ToString() + " is a view; use DROP VIEW");
    if (d.if_exists) return QueryResult();
    return Status::Catalog("Table with name " + d.name.ToString() + " does not exist!");
  }
  RETURN_NOT_OK(db_->fs->DeleteRecursive(root));
  return QueryResult();
}

Result<QueryResult> Session::RunDescribe(const Statement& s) {
  const auto& d = s.As<DescribeStatement>();
  switch (d.describe_kind) {
    case DescribeStatement::Kind::kHistory: return RunDescribeHistory(s);
    case DescribeStatement::Kind::kDetail: return RunDescribeDetail(s);
    case DescribeStatement::Kind::kLayout: return RunDescribeLayout(s);
    case DescribeStatement::Kind::kTable: break;
  }
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields.push_back({"col_name", columnar::String(), false});
  schema->fields.push_back({"data_type", columnar::String(), true});
  schema->fields.push_back({"comment", columnar::String(), true});
  std::vector<columnar::VectorPtr> cols;
  for (int i = 0; i < 3; ++i) cols.push_back(columnar::Vector::Make(columnar::String(), 0));
  int64_t n = 0;
  auto row = [&](const std::string& name, const std::optional<std::string>& type, const std::optional<std::string>& comment) {
    cols[0]->AppendString(name);
    type ? cols[1]->AppendString(*type) : cols[1]->AppendNull();
    comment ? cols[2]->AppendString(*comment) : cols[2]->AppendNull();
    ++n;
  };
  // Inside a transaction the table's staged metadata (ALTER TABLE) shows.
  Catalog catalog = MakeCatalog();
  ASSIGN_OR_RETURN(std::optional<ViewDefinition> view, catalog.FindView(d.name));
  if (view) {
    // A view's columns are its query's output, bound now.
    ASSIGN_OR_RETURN(StatementPtr select, ParseStatement("SELECT * FROM " + d.name.ToString()));
    ExecContext ctx;
    InitContext(&ctx);
    columnar::SchemaPtr view_schema;
    RETURN_NOT_OK(WithoutErrorOffset(PlanQuery(*select->As<SelectStatement>().query, ctx, &view_schema).status()));
    for (const auto& f : view_schema->fields) row(f.name, SparkTypeName(*f.type), std::nullopt);
    if (d.extended) {
      row("", "", "");
      row("# Detailed Table Information", "", "");
      row("Name", view->name, "");
      row("Type", temp_views_.count(Lower(view->name)) ? "TEMPORARY VIEW" : "VIEW", "");
      row("View Text", view->sql, "");
    }
  } else {
    RETURN_NOT_OK(catalog.ResolveTable(d.name, {}).status());
    ASSIGN_OR_RETURN(std::string root, catalog.TableRoot(d.name));
    root = NormalizeRoot(root);
    delta::Metadata metadata;
    if (auto it = txns_.find(root); it != txns_.end()) {
      metadata = it->second->txn->metadata();
    } else {
      auto table = scan::DeltaTable::Open(db_->fs, root);
      if (!table.ok()) return table.status().WithContext("table " + d.name.ToString());
      metadata = (*table)->snapshot()->metadata();
    }
    ASSIGN_OR_RETURN(scan::TableSchema table, scan::BuildTableSchema(metadata));
    ASSIGN_OR_RETURN(delta::SchemaField root_field, delta::ParseSchemaJson(metadata.schema_string));

    auto comment_of = [&](const std::string& name) -> std::optional<std::string> {
      for (const auto& f : root_field.children) {
        if (f.name == name && f.metadata.is_object() && f.metadata.contains("comment") &&
            f.metadata["comment"].is_string()) {
          return f.metadata["comment"].get<std::string>();
        }
      }
      return std::nullopt;
    };
    for (const auto& f : table.schema.fields) row(f.name, SparkTypeName(*f.type), comment_of(f.name));
    if (!metadata.partition_columns.empty()) {
      row("# Partition Information", "", "");
      row("# col_name", "data_type", "comment");
      for (const auto& p : metadata.partition_columns) {
        for (const auto& f : table.schema.fields) {
          if (Lower(f.name) == Lower(p)) row(f.name, SparkTypeName(*f.type), comment_of(f.name));
        }
      }
    }
    if (d.extended) {
      // Spark's detailed section, and Databricks' key constraints (kept as shoal.constraint.*).
      row("", "", "");
      row("# Detailed Table Information", "", "");
      row("Name", metadata.name ? *metadata.name : d.name.IsPath() ? root : d.name.ToString(), "");
      if (metadata.created_time) row("Created Time", columnar::FormatTimestamp(*metadata.created_time * 1000), "");
      row("Type", d.name.IsPath() ? "EXTERNAL" : "MANAGED", "");
      row("Provider", "delta", "");
      row("Location", root, "");
      std::string properties;
      for (const auto& [k, v] : metadata.configuration) {
        if (IsKeyConstraintProperty(k)) continue;
        properties += (properties.empty() ? "" : ",") + k + "=" + v;
      }
      row("Table Properties", "[" + properties + "]", "");
      bool header = false;
      for (const auto& [k, v] : metadata.configuration) {
        if (!IsKeyConstraintProperty(k)) continue;
        if (!header) {
          row("", "", "");
          row("# Constraints", "", "");
          header = true;
        }
        row(k.substr(kKeyConstraintPrefix.size()), v, "");
      }
    }
  }
  std::vector<std::shared_ptr<columnar::RecordBatch>> batches;
  batches.push_back(std::make_shared<columnar::RecordBatch>(schema, std::move(cols), n));
  return MakeQueryResult(schema, std::move(batches), "DESCRIBE");
}

}  // namespace shoal::sql
