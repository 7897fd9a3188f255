// Parquet write throughput (MB/s of raw column data) per value encoding and per codec, into an
// in-memory file system so only encoding, compression and page assembly are measured.
#include <benchmark/benchmark.h>

#include "io/memory_file_system.h"
#include "parquet/file_writer.h"

namespace shoal::parquet {
namespace {

constexpr int64_t kRows = 1 << 20;

// Sorted-ish BIGINT keys, a low-cardinality string, a DOUBLE measure.
const columnar::RecordBatch& Data() {
  static columnar::BatchPtr batch = [] {
    auto schema = std::make_shared<columnar::Schema>();
    schema->fields = {{"k", columnar::Int64(), false}, {"s", columnar::String(), true}, {"d", columnar::Float64(), true}};
    auto k = columnar::Vector::Make(columnar::Int64(), kRows);
    auto s = columnar::Vector::Make(columnar::String(), kRows);
    auto d = columnar::Vector::Make(columnar::Float64(), kRows);
    const char* words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};
    uint64_t x = 88172645463325252ULL;
    for (int64_t i = 0; i < kRows; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      k->Append<int64_t>(i * 3 + static_cast<int64_t>(x % 3));
      s->AppendString(words[x % 8]);
      d->Append<double>(static_cast<double>(x % 100000) / 100.0);
    }
    return std::make_shared<columnar::RecordBatch>(schema, std::vector<columnar::VectorPtr>{k, s, d}, kRows);
  }();
  return *batch;
}

int64_t RawBytes(const columnar::RecordBatch& b) {
  return static_cast<int64_t>(b.column(0)->values().size() + b.column(1)->bytes().size() + b.column(2)->values().size());
}

void Run(benchmark::State& state, const WriterProperties& props) {
  const columnar::RecordBatch& b = Data();
  auto fs = std::make_shared<io::MemoryFileSystem>();
  for (auto _ : state) {
    auto w = ParquetWriter::Open(fs, "/b.parquet", *b.schema, props);
    if (!w.ok() || !(*w)->WriteBatch(b).ok() || !(*w)->Close().ok()) {
      state.SkipWithError("write failed");
      return;
    }
  }
  state.SetBytesProcessed(state.iterations() * RawBytes(b));
}

void BM_WriteEncoding(benchmark::State& state) {
  auto enc = static_cast<Encoding>(state.range(0));
  bool dict = state.range(1) != 0;
  state.SetLabel(std::string(EncodingName(enc)) + (dict ? "+dict" : ""));
  Run(state, WriterProperties::Builder().compression(CompressionCodec::kUncompressed).encoding(enc).dictionary(dict).Build());
}
BENCHMARK(BM_WriteEncoding)
    ->Args({static_cast<int>(Encoding::kPlain), 0})
    ->Args({static_cast<int>(Encoding::kPlain), 1})
    ->Args({static_cast<int>(Encoding::kDeltaBinaryPacked), 0})
    ->Args({static_cast<int>(Encoding::kDeltaLengthByteArray), 0})
    ->Args({static_cast<int>(Encoding::kDeltaByteArray), 0})
    ->Args({static_cast<int>(Encoding::kByteStreamSplit), 0})
    ->Unit(benchmark::kMillisecond);

void BM_WriteCodec(benchmark::State& state) {
  auto codec = static_cast<CompressionCodec>(state.range(0));
  state.SetLabel(CodecName(codec));
  Run(state, WriterProperties::Builder().compression(codec).Build());
}
BENCHMARK(BM_WriteCodec)
    ->Arg(static_cast<int>(CompressionCodec::kUncompressed))
    ->Arg(static_cast<int>(CompressionCodec::kSnappy))
    ->Arg(static_cast<int>(CompressionCodec::kGzip))
    ->Arg(static_cast<int>(CompressionCodec::kZstd))
    ->Arg(static_cast<int>(CompressionCodec::kLz4Raw))
    ->Arg(static_cast<int>(CompressionCodec::kBrotli))
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace shoal::parquet
