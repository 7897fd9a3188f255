#include "sql/functions/arrow_stream_source.h"

#include <atomic>
#include <mutex>

#include "sql/functions/arrow_import.h"
#include "sql/functions/batch_table_source.h"

namespace shoal::sql {

namespace {

// Owns the C structs; releases them when the last user is gone.
struct StreamHandle {
  ArrowArrayStream stream{};
  ArrowSchema schema{};
  std::string name;
  std::mutex mu;
  ArrowArray pending{};  // the batch being handed out in slices
  int64_t pending_pos = 0;

  ~StreamHandle() {
    if (pending.release) pending.release(&pending);
    if (schema.release) schema.release(&schema);
    if (stream.release) stream.release(&stream);
  }

  Status StreamError(int code, const std::string& what) {
    const char* msg = stream.get_last_error ? stream.get_last_error(&stream) : nullptr;
    return Status::IOError("Arrow stream '" + name + "': " + what + " failed (error " + std::to_string(code) + ")" +
                           (msg ? ": " + std::string(msg) : std::string()));
  }
};

class ArrowStreamScan final : public Scan {
 public:
  ArrowStreamScan(std::shared_ptr<StreamHandle> h, columnar::SchemaPtr root_types, columnar::SchemaPtr out_schema,
                  std::vector<int> columns, int batch_size)
      : h_(std::move(h)),
        root_types_(std::move(root_types)),
        out_schema_(std::move(out_schema)),
        columns_(std::move(columns)),
        batch_size_(batch_size > 0 ? batch_size : 2048) {}

  Result<bool> Next(ScanLocalState*, columnar::BatchPtr* out, uint64_t* order) override {
    std::lock_guard<std::mutex> lock(h_->mu);
    ArrowArray& a = h_->pending;
    while (!a.release || h_->pending_pos >= a.length) {
      if (a.release) a.release(&a);
      if (done_) return false;
      ArrowArray next{};
      int rc = h_->stream.get_next(&h_->stream, &next);
      if (rc != 0) return h_->StreamError(rc, "get_next");
      if (!next.release) {
        done_ = true;
        return false;
      }
      a = next;  // moved: the handle releases it
      h_->pending_pos = 0;
      if (a.n_children != h_->schema.n_children || (a.n_children > 0 && !a.children)) {
        return Status::InvalidArgument("Arrow stream '" + h_->name + "': a batch has " + std::to_string(a.n_children) +
                                       " columns, its schema " + std::to_string(h_->schema.n_children));
      }
    }
    int64_t n = std::min<int64_t>(batch_size_, a.length - h_->pending_pos);
    std::vector<columnar::VectorPtr> cols;
    for (int c : columns_) {
      if (!a.children[c]) return Status::InvalidArgument("Arrow stream '" + h_->name + "': column array is null");
      // A struct's children are indexed by the parent's offset + row.
      ASSIGN_OR_RETURN(auto v, ImportArrowArray(*h_->schema.children[c], *a.children[c], root_types_->fields[c].type,
                                                a.offset + h_->pending_pos, n));
      cols.push_back(std::move(v));
    }
    h_->pending_pos += n;
    *out = std::make_shared<columnar::RecordBatch>(out_schema_, std::move(cols), n);
    *order = next_order_++;
    return true;
  }

 private:
  std::shared_ptr<StreamHandle> h_;
  columnar::SchemaPtr root_types_;
  columnar::SchemaPtr out_schema_;
  std::vector<int> columns_;
  int batch_size_;
  bool done_ = false;
  uint64_t next_order_ = 0;
};

class ArrowStreamSource final : public TableSource {
 public:
  ArrowStreamSource(std::shared_ptr<StreamHandle> h, columnar::SchemaPtr schema)
      : h_(std::move(h)), schema_(std::move(schema)) {}

  const columnar::Schema& schema() const override { return *schema_; }
  std::string ToString() const override { return "arrow_stream(" + h_->name + ")"; }

  Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const override {
    if (opened_.exchange(true)) {
      return Status::InvalidArgument("Arrow stream '" + h_->name +
                                     "' was already read: a registered stream is read once (register it again)");
    }
    auto out = std::make_shared<columnar::Schema>();
    for (int c : request.columns) {
      if (c < 0 || c >= static_cast<int>(schema_->size())) return Status::Internal("Arrow stream column out of range");
      out->fields.push_back(schema_->fields[c]);
    }
    return std::unique_ptr<Scan>(new ArrowStreamScan(h_, schema_, out, request.columns, request.batch_size));
  }

 private:
  std::shared_ptr<StreamHandle> h_;
  columnar::SchemaPtr schema_;
  mutable std::atomic<bool> opened_{false};
};

}  // namespace

Result<std::shared_ptr<const TableSource>> MakeArrowStreamSource(ArrowArrayStream* stream, const std::string& name) {
  if (!stream || !stream->release) return Status::InvalidArgument("Arrow stream '" + name + "' is null or released");
  auto h = std::make_shared<StreamHandle>();
  h->stream = *stream;  // move: the caller's struct is marked released
  stream->release = nullptr;
  h->name = name;
  if (name.empty()) return Status::InvalidArgument("an Arrow stream needs a relation name");
  if (!h->stream.get_schema || !h->stream.get_next) return Status::InvalidArgument("Arrow stream '" + name + "' has no callbacks");
  int rc = h->stream.get_schema(&h->stream, &h->schema);
  if (rc != 0) return h->StreamError(rc, "get_schema");
  if (!h->schema.release) return Status::InvalidArgument("Arrow stream '" + name + "': get_schema returned a released schema");
  if (!h->schema.format || std::string(h->schema.format) != "+s") {
    return Status::NotSupported("Arrow stream '" + name + "': its schema must be a struct ('+s'), got format '" +
                                (h->schema.format ? std::string(h->schema.format) : "") + "'");
  }
  auto schema = std::make_shared<columnar::Schema>();
  for (int64_t i = 0; i < h->schema.n_children; ++i) {
    const ArrowSchema* c = h->schema.children ? h->schema.children[i] : nullptr;
    if (!c) return Status::InvalidArgument("Arrow stream '" + name + "': schema child is null");
    auto t = ImportArrowType(*c);
    if (!t.ok()) return t.status().WithContext("Arrow stream '" + name + "'");
    schema->fields.push_back({c->name ? c->name : "column" + std::to_string(i), *t, (c->flags & ARROW_FLAG_NULLABLE) != 0});
  }
  return std::shared_ptr<const TableSource>(std::make_shared<ArrowStreamSource>(std::move(h), std::move(schema)));
}

Result<std::shared_ptr<const TableSource>> ReadArrowStream(ArrowArrayStream* stream, const std::string& name,
                                                           int batch_size) {
  ASSIGN_OR_RETURN(auto source, MakeArrowStreamSource(stream, name));
  ScanRequest request;
  for (int i = 0; i < static_cast<int>(source->schema().size()); ++i) request.columns.push_back(i);
  request.batch_size = batch_size;
  std::vector<columnar::BatchPtr> batches;
  {
    ASSIGN_OR_RETURN(auto scan, source->Open(request));
    auto local = scan->MakeLocal();
    while (true) {
      columnar::BatchPtr b;
      uint64_t order = 0;
      ASSIGN_OR_RETURN(bool more, scan->Next(local.get(), &b, &order));
      if (!more) break;
      if (b->num_rows > 0) batches.push_back(std::move(b));
    }
  }
  columnar::Schema schema = source->schema();
  source.reset();  // releases the stream
  ASSIGN_OR_RETURN(auto table, BatchTableSource::Make(name, std::move(schema), std::move(batches)));
  return std::shared_ptr<const TableSource>(std::move(table));
}

}  // namespace shoal::sql
