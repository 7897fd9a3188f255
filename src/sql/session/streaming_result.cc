#include <algorithm>
#include <iterator>

#include "columnar/decimal.h"
#include "columnar/value_text.h"
#include "sql/session/query_result_impl.h"
#include "sql/session/streaming_result_impl.h"

namespace shoal {

namespace {

const ColumnType& NullColumnType() {
  static const ColumnType t;
  return t;
}

std::shared_ptr<const std::vector<ColumnType>> TypesOf(const columnar::Schema& schema) {
  auto types = std::make_shared<std::vector<ColumnType>>();
  for (const auto& f : schema.fields) types->push_back(ToColumnType(*f.type));
  return types;
}

}  // namespace

ColumnType ToColumnType(const columnar::DataType& type) {
  ColumnType t;
  t.kind = static_cast<TypeKind>(type.id());  // the enums list the same kinds in the same order
  t.precision = type.precision();
  t.scale = type.scale();
  for (const auto& c : type.children()) {
    t.child_names.push_back(c.name);
    t.children.push_back(ToColumnType(*c.type));
  }
  return t;
}

static_assert(static_cast<int>(TypeKind::kMap) == static_cast<int>(columnar::TypeId::kMap) &&
                  static_cast<int>(TypeKind::kDecimal) == static_cast<int>(columnar::TypeId::kDecimal) &&
                  static_cast<int>(TypeKind::kTimestampNtz) == static_cast<int>(columnar::TypeId::kTimestampNtz),
              "TypeKind mirrors columnar::TypeId");

std::string ColumnType::ToString() const {
  switch (kind) {
    case TypeKind::kNull: return "NULL";
    case TypeKind::kBoolean: return "BOOLEAN";
    case TypeKind::kInt8: return "TINYINT";
    case TypeKind::kInt16: return "SMALLINT";
    case TypeKind::kInt32: return "INT";
    case TypeKind::kInt64: return "BIGINT";
    case TypeKind::kUInt64: return "UBIGINT";
    case TypeKind::kFloat: return "FLOAT";
    case TypeKind::kDouble: return "DOUBLE";
    case TypeKind::kDecimal: return "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case TypeKind::kString: return "STRING";
    case TypeKind::kBinary: return "BINARY";
    case TypeKind::kDate: return "DATE";
    case TypeKind::kTime: return "TIME";
    case TypeKind::kTimestamp: return "TIMESTAMP";
    case TypeKind::kTimestampNtz: return "TIMESTAMP_NTZ";
    case TypeKind::kList: return "ARRAY<" + (children.empty() ? std::string("?") : children[0].ToString()) + ">";
    case TypeKind::kMap: {
      if (children.empty() || children[0].children.size() != 2) return "MAP<?>";
      return "MAP<" + children[0].children[0].ToString() + ", " + children[0].children[1].ToString() + ">";
    }
    case TypeKind::kStruct: {
      std::string s = "STRUCT<";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i) s += ", ";
        s += (i < child_names.size() ? child_names[i] : std::string()) + ": " + children[i].ToString();
      }
      return s + ">";
    }
  }
  return "UNKNOWN";
}

std::string Decimal128::ToString(int scale) const {
  auto v = static_cast<columnar::int128_t>((static_cast<unsigned __int128>(static_cast<uint64_t>(high)) << 64) | low);
  return columnar::FormatDecimal(v, scale);
}

// ---- Column

const ColumnType& Column::type() const { return type_ ? *type_ : NullColumnType(); }
int64_t Column::size() const { return vector_ ? vector_->size() : 0; }
bool Column::IsNull(int64_t row) const {
  if (!vector_ || row < 0 || row >= vector_->size()) return false;
  return type_->kind == TypeKind::kNull || vector_->IsNull(row);
}
int64_t Column::null_count() const {
  if (!vector_) return 0;
  return type_->kind == TypeKind::kNull ? vector_->size() : vector_->CountNulls();
}
bool Column::Is(TypeKind kind, int64_t row) const {
  return vector_ && type_->kind == kind && row >= 0 && row < vector_->size();
}

bool Column::GetBool(int64_t row) const { return Is(TypeKind::kBoolean, row) && vector_->Get<uint8_t>(row) != 0; }
int8_t Column::GetInt8(int64_t row) const { return Is(TypeKind::kInt8, row) ? vector_->Get<int8_t>(row) : 0; }
int16_t Column::GetInt16(int64_t row) const {
  if (Is(TypeKind::kInt16, row)) return vector_->Get<int16_t>(row);
  return GetInt8(row);
}
int32_t Column::GetInt32(int64_t row) const {
  if (Is(TypeKind::kInt32, row)) return vector_->Get<int32_t>(row);
  return GetInt16(row);
}
int64_t Column::GetInt64(int64_t row) const {
  if (Is(TypeKind::kInt64, row)) return vector_->Get<int64_t>(row);
  return GetInt32(row);
}
uint64_t Column::GetUInt64(int64_t row) const { return Is(TypeKind::kUInt64, row) ? vector_->Get<uint64_t>(row) : 0; }
float Column::GetFloat(int64_t row) const { return Is(TypeKind::kFloat, row) ? vector_->Get<float>(row) : 0.0f; }
double Column::GetDouble(int64_t row) const {
  if (Is(TypeKind::kDouble, row)) return vector_->Get<double>(row);
  return GetFloat(row);
}
Decimal128 Column::GetDecimal(int64_t row) const {
  Decimal128 d;
  if (!Is(TypeKind::kDecimal, row)) return d;
  columnar::int128_t v = type_->precision > 18 ? vector_->Get<columnar::int128_t>(row) : vector_->Get<int64_t>(row);
  d.low = static_cast<uint64_t>(static_cast<unsigned __int128>(v));
  d.high = static_cast<int64_t>(v >> 64);
  return d;
}
int32_t Column::GetDate(int64_t row) const { return Is(TypeKind::kDate, row) ? vector_->Get<int32_t>(row) : 0; }
int64_t Column::GetTime(int64_t row) const { return Is(TypeKind::kTime, row) ? vector_->Get<int64_t>(row) : 0; }
int64_t Column::GetTimestamp(int64_t row) const {
  if (Is(TypeKind::kTimestamp, row) || Is(TypeKind::kTimestampNtz, row)) return vector_->Get<int64_t>(row);
  return 0;
}
std::string_view Column::GetString(int64_t row) const {
  if (Is(TypeKind::kString, row) || Is(TypeKind::kBinary, row)) return vector_->GetString(row);
  return {};
}
Column::ListRange Column::GetList(int64_t row) const {
  if (!Is(TypeKind::kList, row) && !Is(TypeKind::kMap, row)) return {};
  const int64_t* o = vector_->offsets();
  return {o[row], o[row + 1]};
}
int Column::num_children() const {
  if (!vector_) return 0;
  return static_cast<int>(std::min(vector_->children().size(), type_->children.size()));
}
Column Column::child(int i) const {
  if (i < 0 || i >= num_children()) return Column();
  return Column(vector_->child(i).get(), &type_->children[i]);
}
std::string Column::GetText(int64_t row) const {
  if (!vector_ || row < 0 || row >= vector_->size()) return "";
  return columnar::TextOf(*vector_, row);
}

// ---- ResultBatch

ResultBatch::ResultBatch() = default;
ResultBatch::~ResultBatch() = default;
ResultBatch::ResultBatch(const ResultBatch&) = default;
ResultBatch& ResultBatch::operator=(const ResultBatch&) = default;
ResultBatch::ResultBatch(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

int64_t ResultBatch::num_rows() const { return impl_ ? impl_->batch->num_rows : 0; }
int ResultBatch::num_columns() const { return impl_ ? static_cast<int>(impl_->batch->columns.size()) : 0; }
const std::string& ResultBatch::column_name(int i) const {
  static const std::string empty;
  if (i < 0 || i >= num_columns() || i >= static_cast<int>(impl_->schema->size())) return empty;
  return impl_->schema->fields[i].name;
}
Column ResultBatch::column(int i) const {
  if (i < 0 || i >= num_columns() || i >= static_cast<int>(impl_->types->size())) return Column();
  return Column(impl_->batch->columns[i].get(), &(*impl_->types)[i]);
}
const std::shared_ptr<columnar::RecordBatch>& ResultBatch::batch() const {
  static const std::shared_ptr<columnar::RecordBatch> none;
  return impl_ ? impl_->batch : none;
}

// ---- StreamingResult

StreamingResult::StreamingResult(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StreamingResult::~StreamingResult() = default;

int StreamingResult::num_columns() const { return static_cast<int>(impl_->schema->size()); }
const std::string& StreamingResult::column_name(int i) const { return impl_->schema->fields.at(i).name; }
const ColumnType& StreamingResult::column_type(int i) const { return impl_->types->at(i); }
const std::string& StreamingResult::statement_type() const { return impl_->statement_type; }
const ScanMetrics& StreamingResult::metrics() const { return impl_->metrics; }

Result<bool> StreamingResult::Next(ResultBatch* batch) {
  ASSIGN_OR_RETURN(columnar::BatchPtr b, impl_->NextBatch());
  if (!b) return false;
  auto bi = std::make_shared<ResultBatch::Impl>();
  bi->batch = std::move(b);
  bi->schema = impl_->schema;
  bi->types = impl_->types;
  *batch = ResultBatch(std::move(bi));
  return true;
}

Status StreamingResult::Impl::CheckOpen() {
  if (in_transaction && conn->generation.load() != generation) {
    error = Status::InvalidArgument(
        "the result stream was closed: its connection ran another statement inside the transaction it was read in");
    query.reset();
  }
  return error;
}

Status StreamingResult::Impl::Fail(Status st) {
  error = std::move(st);
  query.reset();
  // The statement failed inside its transaction (which is still the connection's current one:
  // CheckOpen passed), as a failing Connection::Query does.
  if (in_transaction) conn->session.FailTransaction(error);
  return error;
}

void StreamingResult::Impl::FinishQuery() {
  int64_t returned = metrics.rows_returned;
  metrics = query->ctx->scan_metrics;
  metrics.rows_returned = returned;
  metrics.elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  query.reset();  // frees the plan and its buffers now
}

Result<columnar::BatchPtr> StreamingResult::Impl::NextBatch() {
  RETURN_NOT_OK(error);
  if (done) return columnar::BatchPtr();
  RETURN_NOT_OK(CheckOpen());
  columnar::BatchPtr b;
  if (query) {
    auto next = query->stream->Next();
    if (!next.ok()) return Fail(next.status());
    b = std::move(next).value();
    if (b) {
      metrics.rows_returned += b->num_rows;
    } else {
      FinishQuery();
    }
  } else if (!batches.empty()) {
    b = std::move(batches.front());
    batches.pop_front();
  }
  if (!b) done = true;
  return b;
}

Result<std::vector<columnar::BatchPtr>> StreamingResult::Impl::Drain() {
  RETURN_NOT_OK(error);
  std::vector<columnar::BatchPtr> out;
  if (done) return out;
  RETURN_NOT_OK(CheckOpen());
  if (query) {
    auto rest = query->stream->Drain();
    if (!rest.ok()) return Fail(rest.status());
    out = std::move(rest).value();
    for (const auto& b : out) metrics.rows_returned += b->num_rows;
    FinishQuery();
  } else {
    out.assign(std::make_move_iterator(batches.begin()), std::make_move_iterator(batches.end()));
    batches.clear();
  }
  done = true;
  return out;
}

Result<QueryResult> CollectStream(StreamingResult& stream) {
  StreamingResult::Impl& s = stream.impl();
  const bool planned = s.query.has_value();  // a SELECT's rows (not a statement's own result)
  ASSIGN_OR_RETURN(std::vector<columnar::BatchPtr> batches, s.Drain());
  // The held rows count under memory_limit until the result is destroyed, as the rows a plan
  // collects do (Executor::Run). They are reserved once drained: a result over the limit fails
  // here, after its batches were made (the stream itself holds a bounded number at a time).
  MemoryReservation memory(planned && s.conn ? s.conn->db->memory : nullptr, "QueryResult");
  for (const auto& b : batches) RETURN_NOT_OK(memory.Grow(columnar::BatchMemoryBytes(*b)));
  memory.Trim();
  QueryResult r = MakeQueryResult(s.schema, std::move(batches), s.statement_type, s.metrics);
  r.impl().memory = std::move(memory);
  r.impl().zone = s.zone;
  return r;
}

size_t StreamingResult::Impl::max_buffered() const { return query ? query->stream->max_buffered() : 0; }

std::unique_ptr<StreamingResult> MakeFinishedStream(QueryResult result, std::shared_ptr<Connection::Impl> conn) {
  auto impl = std::make_unique<StreamingResult::Impl>();
  impl->generation = conn->generation.load();
  impl->in_transaction = false;  // the rows are in memory: nothing refers to the transaction
  impl->conn = std::move(conn);
  impl->schema = result.schema();
  impl->types = TypesOf(*impl->schema);
  impl->statement_type = result.statement_type();
  impl->zone = result.time_zone();
  impl->metrics = result.metrics();
  for (const auto& b : result.batches()) impl->batches.push_back(b);
  return std::make_unique<StreamingResult>(std::move(impl));
}

std::unique_ptr<StreamingResult> MakeQueryStream(sql::Session::OpenedQuery query, std::shared_ptr<Connection::Impl> conn,
                                                 std::chrono::steady_clock::time_point start) {
  auto impl = std::make_unique<StreamingResult::Impl>();
  impl->generation = conn->generation.load();
  impl->in_transaction = conn->session.in_transaction();
  impl->zone = conn->session.time_zone();
  impl->conn = std::move(conn);
  impl->schema = query.schema;
  impl->types = TypesOf(*impl->schema);
  impl->statement_type = "SELECT";
  impl->start = start;
  impl->query = std::move(query);
  return std::make_unique<StreamingResult>(std::move(impl));
}

}  // namespace shoal
