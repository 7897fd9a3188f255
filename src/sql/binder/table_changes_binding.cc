#include "sql/binder/table_changes_binding.h"

#include "sql/functions/batch_table_source.h"
#include "table/change_data_reader.h"

namespace shoal::sql {
namespace {

constexpr const char* kSignature =
    "table_changes(table_name_or_path STRING, start BIGINT | TIMESTAMP | STRING[, end BIGINT | TIMESTAMP | STRING])";

// The table a name string refers to: a path when it holds a '/', else dotted name parts.
Result<TableName> TableNameOf(const std::string& text) {
  TableName name;
  if (text.find('/') != std::string::npos) {
    name.path = text;
    return name;
  }
  std::string part;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '.') {
      if (part.empty()) return Status::Binder("table_changes: '" + text + "' is not a table name");
      name.parts.push_back(part);
      part.clear();
    } else if (text[i] != '`') {
      part.push_back(text[i]);
    }
  }
  return name;
}

// A version bound: an integer is a version, anything else a timestamp resolved against the
// commits (`start`: the first version at or after it, else the last at or before it).
Result<int64_t> VersionBound(const Catalog& catalog, const std::string& root, const columnar::Value& v,
                             bool start) {
  const char* which = start ? "start" : "end";
  if (v.is_null()) return Status::InvalidArgument(std::string("table_changes: the ") + which + " must not be NULL");
  if (v.type()->IsInteger()) return v.GetInt();
  auto at = EvaluateTimeTravel(TimeTravel::Kind::kTimestamp, v);
  if (!at.ok()) {
    return Status::InvalidArgument(std::string("table_changes: the ") + which +
                                   " must be a version or a timestamp, got " + v.ToString());
  }
  return start ? table::ChangeStartVersionAt(catalog.fs(), root, *at->timestamp_ms)
               : table::ChangeEndVersionAt(catalog.fs(), root, *at->timestamp_ms);
}

}  // namespace

Result<std::shared_ptr<const TableSource>> BindTableChanges(const Catalog& catalog, const TableFunctionArgs& args) {
  if (!args.named.empty() || args.positional.size() < 2 || args.positional.size() > 3) {
    return Status::Binder(std::string("table_changes expects 2 or 3 arguments: ") + kSignature);
  }
  const columnar::Value& t = args.positional[0];
  if (t.is_null() || t.type()->id() != columnar::TypeId::kString) {
    return Status::Binder(std::string("table_changes: the first argument must be a table name or path: ") +
                          kSignature);
  }
  ASSIGN_OR_RETURN(TableName name, TableNameOf(t.GetString()));
  // The catalog's own error for a table that does not exist.
  RETURN_NOT_OK(catalog.ResolveTable(name, scan::TimeTravel{}).status());
  ASSIGN_OR_RETURN(const std::string root, catalog.TableRoot(name));
  ASSIGN_OR_RETURN(int64_t start, VersionBound(catalog, root, args.positional[1], true));
  std::optional<int64_t> end;
  if (args.positional.size() == 3) {
    ASSIGN_OR_RETURN(end, VersionBound(catalog, root, args.positional[2], false));
  }
  ASSIGN_OR_RETURN(table::ChangeRows rows, table::ReadTableChanges(catalog.fs(), root, start, end));
  ASSIGN_OR_RETURN(auto source, BatchTableSource::Make("table_changes(" + t.GetString() + ")", *rows.schema,
                                                       std::move(rows.batches)));
  return std::shared_ptr<const TableSource>(std::move(source));
}

}  // namespace shoal::sql
