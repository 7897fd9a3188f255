#include "sql/write/table_write_sink.h"

#include "columnar/value.h"
#include "expr/cast.h"
#include "expr/evaluate.h"

namespace shoal::sql {

struct TableWriteSink::Local final : LocalSinkState {
  // A worker that fails never reaches Combine; destroying its writer deletes the files it wrote.
  std::unique_ptr<table::DataFileWriter> writer;  // this thread's own writer
  bool shared = false;                            // writes through the shared writer_
  expr::EvalContext ctx;
};

TableWriteSink::TableWriteSink(TableWriteSpec spec)
    : PhysicalOperator(std::make_shared<columnar::Schema>()), spec_(std::move(spec)) {
  for (size_t i = 0; i < spec_.source_index.size(); ++i) {
    identity_used_.push_back(std::make_unique<std::atomic<int64_t>>(0));
  }
}

// The first writer made decides: one that sorts the whole write becomes the shared writer_ for
// every thread; otherwise each thread makes its own.
Status TableWriteSink::ChooseWriter(Local* l) {
  std::lock_guard<std::mutex> lock(writer_mu_);
  if (writer_) {
    l->shared = true;
    return Status::OK();
  }
  ASSIGN_OR_RETURN(auto w, table::DataFileWriter::Make(spec_.fs, spec_.root, spec_.metadata, spec_.writer_options));
  if (w->sorts_whole_write()) {
    writer_ = std::move(w);
    l->shared = true;
  } else {
    l->writer = std::move(w);
  }
  return Status::OK();
}

Result<std::unique_ptr<SourceState>> TableWriteSink::OpenSource(ExecContext&) {
  return std::unique_ptr<SourceState>(std::make_unique<BatchListSource>(std::vector<columnar::BatchPtr>{}));
}

Result<std::unique_ptr<LocalSinkState>> TableWriteSink::MakeLocalSink(ExecContext& ctx, int) {
  auto l = std::make_unique<Local>();
  l->ctx.statement_timestamp = ctx.statement_timestamp;
  return std::unique_ptr<LocalSinkState>(std::move(l));
}

Result<columnar::BatchPtr> TableWriteSink::ToTableRows(const columnar::RecordBatch& in, expr::EvalContext& ctx) {
  const columnar::Schema& schema = *spec_.table_schema;
  const int64_t n = in.num_rows;
  std::vector<columnar::VectorPtr> cols(schema.size());
  for (size_t c = 0; c < schema.size(); ++c) {
    const columnar::Field& f = schema.fields[c];
    int src = spec_.source_index[c];
    if (src >= 0) {
      auto cast = expr::CastVector(in.columns[src], f.type);
      if (!cast.ok()) return cast.status().WithContext("column " + f.name);
      cols[c] = std::move(*cast);
    } else if (spec_.identity[c]) {
      int64_t first = identity_used_[c]->fetch_add(n);
      ASSIGN_OR_RETURN(cols[c], IdentityValues(*spec_.identity[c], first, n, f.name));
    } else if (c < spec_.defaults.size() && spec_.defaults[c]) {
      cols[c] = spec_.defaults[c]->Broadcast(n);
    } else {
      cols[c] = columnar::Vector::MakeNull(f.type, n);
    }
  }
  auto batch = std::make_shared<columnar::RecordBatch>(spec_.table_schema, std::move(cols), n);
  if (spec_.generated) {
    std::vector<bool> supplied(schema.size());
    for (size_t c = 0; c < schema.size(); ++c) supplied[c] = spec_.source_index[c] >= 0;
    RETURN_NOT_OK(spec_.generated->Apply(batch.get(), supplied, ctx));
  }
  if (spec_.replace_where) {
    std::vector<uint32_t> sel;
    ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*spec_.replace_where, *batch, ctx, &sel));
    if (k < n) {
      return Status::Constraint("Data written into Delta table " + spec_.table_name +
                                " does not conform to the REPLACE WHERE condition " + spec_.replace_where_sql);
    }
  }
  return batch;
}

Status TableWriteSink::Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int) {
  RETURN_NOT_OK(ctx.CheckInterrupt());
  auto* l = static_cast<Local*>(local);
  ASSIGN_OR_RETURN(columnar::BatchPtr rows, ToTableRows(*chunk.batch, l->ctx));
  if (!l->writer && !l->shared) RETURN_NOT_OK(ChooseWriter(l));
  if (l->shared) {
    std::lock_guard<std::mutex> lock(writer_mu_);
    RETURN_NOT_OK(writer_->Write(*rows));
  } else {
    RETURN_NOT_OK(l->writer->Write(*rows));
  }
  rows_.fetch_add(rows->num_rows);
  return Status::OK();
}

void TableWriteSink::AddFiles(std::vector<delta::AddFile> files) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& a : files) adds_.push_back(std::move(a));
}

Status TableWriteSink::Combine(ExecContext&, LocalSinkState* local, int) {
  auto* l = static_cast<Local*>(local);
  if (!l->writer) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<delta::AddFile> adds, l->writer->Finish());
  l->writer.reset();
  AddFiles(std::move(adds));
  return Status::OK();
}

Status TableWriteSink::Finalize(ExecContext&) {
  std::lock_guard<std::mutex> wlock(writer_mu_);
  if (!writer_) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<delta::AddFile> adds, writer_->Finish());
  writer_.reset();
  AddFiles(std::move(adds));
  return Status::OK();
}

}  // namespace shoal::sql
