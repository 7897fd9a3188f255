// Decode throughput of the Parquet encodings. Each benchmark reports items/s or bytes/s;
// PLAIN also reports its time relative to a memcpy of the same bytes measured in the same run.
// BM_PageInt64/BM_PageStrings decompress and decode one data page with each codec (bytes/s of
// decoded page data; `ratio` = compressed/uncompressed size).
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <chrono>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parquet/bit_unpack.h"
#include "parquet/compression.h"
#include "parquet/crc32.h"
#include "parquet/delta_encoding.h"
#include "parquet/plain_encoding.h"
#include "parquet/rle_bit_packed.h"

namespace shoal::parquet {
namespace {

constexpr int64_t kValues = 64 * 1024;  // about one data page of int64

double SecondsPerCopy(const uint8_t* src, uint8_t* dst, size_t bytes, int64_t reps) {
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < reps; ++i) {
    std::memcpy(dst, src, bytes);
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
}

void BM_PlainInt64Decode(benchmark::State& state) {
  std::vector<int64_t> values(kValues);
  std::mt19937_64 rng(1);
  for (auto& v : values) v = static_cast<int64_t>(rng());
  columnar::Buffer page;
  EncodePlainFixed(values.data(), 8, kValues, &page);
  columnar::Buffer out(kValues * 8);
  int64_t reps = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    PlainDecoder dec(page.data(), static_cast<int64_t>(page.size()));
    Status st = dec.DecodeFixed(8, kValues, out.data());
    benchmark::DoNotOptimize(st);
    benchmark::ClobberMemory();
    ++reps;
  }
  const double plain =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
  const double copy = SecondsPerCopy(page.data(), out.data(), page.size(), reps);
  state.SetBytesProcessed(state.iterations() * kValues * 8);
  state.counters["x_memcpy_time"] = plain / copy;
}
BENCHMARK(BM_PlainInt64Decode);

void BM_MemcpyBaseline(benchmark::State& state) {
  std::vector<uint8_t> src(kValues * 8, 1), dst(kValues * 8);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kValues * 8);
}
BENCHMARK(BM_MemcpyBaseline);

// Dictionary indices of bit width `range(0)`; `range(1)` = average RLE run length (1: random).
columnar::Buffer MakeIndices(int bw, int run) {
  std::mt19937_64 rng(2);
  std::vector<uint32_t> idx;
  const uint32_t mask = (uint32_t{1} << bw) - 1;
  while (static_cast<int64_t>(idx.size()) < kValues) {
    const uint32_t v = static_cast<uint32_t>(rng()) & mask;
    const int len = run == 1 ? 1 : static_cast<int>(rng() % (2 * run)) + 1;
    for (int i = 0; i < len && static_cast<int64_t>(idx.size()) < kValues; ++i) idx.push_back(v);
  }
  columnar::Buffer enc;
  RleBitPackedEncoder e(bw, &enc);
  e.PutBatch(idx.data(), kValues);
  e.Flush();
  return enc;
}

void BM_RleDictIndices(benchmark::State& state) {
  const int bw = static_cast<int>(state.range(0));
  columnar::Buffer enc = MakeIndices(bw, static_cast<int>(state.range(1)));
  std::vector<uint32_t> out(kValues);
  for (auto _ : state) {
    RleBitPackedDecoder dec;
    Status st = dec.Reset(enc.data(), static_cast<int64_t>(enc.size()), bw);
    auto got = dec.GetBatch(out.data(), kValues);
    benchmark::DoNotOptimize(got);
    benchmark::DoNotOptimize(st);
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleDictIndices)->Args({8, 1})->Args({12, 1})->Args({16, 1})->Args({12, 20});

void BM_RleDictGatherInt64(benchmark::State& state) {
  const int bw = static_cast<int>(state.range(0));
  columnar::Buffer enc = MakeIndices(bw, 1);
  std::vector<int64_t> dict(size_t{1} << bw);
  for (size_t i = 0; i < dict.size(); ++i) dict[i] = static_cast<int64_t>(i * 7919);
  std::vector<int64_t> out(kValues);
  for (auto _ : state) {
    RleBitPackedDecoder dec;
    Status st = dec.Reset(enc.data(), static_cast<int64_t>(enc.size()), bw);
    auto got = dec.GetBatchWithDict(dict.data(), static_cast<int64_t>(dict.size()), out.data(), kValues);
    benchmark::DoNotOptimize(got);
    benchmark::DoNotOptimize(st);
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleDictGatherInt64)->Arg(8)->Arg(12);

void BM_DeltaBinaryPackedInt64(benchmark::State& state) {
  std::mt19937_64 rng(3);
  std::vector<int64_t> values(kValues);
  int64_t t = 1700000000000000;
  for (auto& v : values) v = t += static_cast<int64_t>(rng() % 1000);  // timestamps
  columnar::Buffer enc;
  EncodeDeltaBinaryPacked(values.data(), kValues, &enc);
  std::vector<int64_t> out(kValues);
  for (auto _ : state) {
    DeltaBinaryPackedDecoder<int64_t> dec;
    Status st = dec.Reset(enc.data(), static_cast<int64_t>(enc.size()));
    st = dec.Decode(kValues, out.data());
    benchmark::DoNotOptimize(st);
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DeltaBinaryPackedInt64);

void BM_DeltaLengthByteArray(benchmark::State& state) {
  std::mt19937_64 rng(4);
  auto src = columnar::Vector::Make(columnar::String());
  std::string s;
  for (int64_t i = 0; i < kValues; ++i) {
    s.assign(static_cast<size_t>(rng() % 20), 'x');
    src->AppendString(s);
  }
  columnar::Buffer enc;
  EncodeDeltaLengthByteArray(src->offsets(), src->bytes().data(), kValues, &enc);
  auto out = columnar::Vector::Make(columnar::String());
  for (auto _ : state) {
    out->Clear();
    DeltaLengthByteArrayDecoder dec;
    Status st = dec.Reset(enc.data(), static_cast<int64_t>(enc.size()), kValues);
    st = dec.Decode(kValues, out.get());
    benchmark::DoNotOptimize(st);
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(src->bytes().size()));
}
BENCHMARK(BM_DeltaLengthByteArray);

void BM_PlainByteArray(benchmark::State& state) {
  std::mt19937_64 rng(4);
  auto src = columnar::Vector::Make(columnar::String());
  std::string s;
  for (int64_t i = 0; i < kValues; ++i) {
    s.assign(static_cast<size_t>(rng() % 20), 'x');
    src->AppendString(s);
  }
  columnar::Buffer enc;
  EncodePlainByteArrays(src->offsets(), src->bytes().data(), kValues, &enc);
  auto out = columnar::Vector::Make(columnar::String());
  for (auto _ : state) {
    out->Clear();
    PlainDecoder dec(enc.data(), static_cast<int64_t>(enc.size()));
    Status st = dec.DecodeByteArrays(kValues, out.get());
    benchmark::DoNotOptimize(st);
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_PlainByteArray);

void BM_UnpackBits32(benchmark::State& state) {
  const int bw = static_cast<int>(state.range(0));
  std::vector<uint8_t> packed(static_cast<size_t>(kValues * bw / 8));
  std::mt19937_64 rng(5);
  for (auto& b : packed) b = static_cast<uint8_t>(rng());
  std::vector<uint32_t> out(kValues);
  for (auto _ : state) {
    UnpackBits32(packed.data(), bw, out.data(), kValues);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_UnpackBits32)->Arg(1)->Arg(2)->Arg(3)->Arg(5)->Arg(8)->Arg(12)->Arg(16)->Arg(20)->Arg(32);

// Codecs by their Parquet number, as the benchmark argument: 0 UNCOMPRESSED, 1 SNAPPY, 2 GZIP,
// 4 BROTLI, 5 LZ4 (Hadoop framing), 6 ZSTD, 7 LZ4_RAW.
std::string CompressPage(CompressionCodec codec, const columnar::Buffer& page) {
  const std::string_view raw(reinterpret_cast<const char*>(page.data()), page.size());
  std::string out;
  if (codec == CompressionCodec::kUncompressed) return std::string(raw);
  if (codec == CompressionCodec::kLz4) {
    // Hadoop framing: big-endian uncompressed and compressed lengths, then one LZ4 block.
    std::string block;
    if (!Compress(CompressionCodec::kLz4Raw, raw, &block).ok()) return {};
    for (uint32_t v : {static_cast<uint32_t>(raw.size()), static_cast<uint32_t>(block.size())}) {
      for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift));
    }
    return out + block;
  }
  if (!Compress(codec, raw, &out).ok()) return {};
  return out;
}

// Decompresses `compressed` into `scratch` and runs `decode` on it, once per iteration.
template <typename Decode>
void RunPage(benchmark::State& state, const columnar::Buffer& page, Decode decode) {
  const auto codec = static_cast<CompressionCodec>(state.range(0));
  const std::string compressed = CompressPage(codec, page);
  if (compressed.empty()) {
    state.SkipWithError("compression failed");
    return;
  }
  columnar::Buffer scratch(page.size());
  for (auto _ : state) {
    const uint8_t* data = reinterpret_cast<const uint8_t*>(compressed.data());
    if (codec != CompressionCodec::kUncompressed) {
      Status st = Decompress(codec, data, compressed.size(), scratch.data(), page.size());
      if (!st.ok()) {
        state.SkipWithError(st.ToString().c_str());
        return;
      }
      data = scratch.data();
    }
    decode(data, static_cast<int64_t>(page.size()));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(page.size()));
  state.counters["ratio"] = static_cast<double>(compressed.size()) / static_cast<double>(page.size());
}

// A PLAIN int64 page of order-key-like values (ascending with small gaps: compressible).
void BM_PageInt64(benchmark::State& state) {
  std::vector<int64_t> values(kValues);
  std::mt19937_64 rng(6);
  int64_t v = 1000000;
  for (auto& x : values) x = v += static_cast<int64_t>(rng() % 8);
  columnar::Buffer page;
  EncodePlainFixed(values.data(), 8, kValues, &page);
  columnar::Buffer out(kValues * 8);
  RunPage(state, page, [&](const uint8_t* data, int64_t size) {
    PlainDecoder dec(data, size);
    Status st = dec.DecodeFixed(8, kValues, out.data());
    benchmark::DoNotOptimize(st);
  });
}
BENCHMARK(BM_PageInt64)->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(5)->Arg(6)->Arg(7);

// A PLAIN BYTE_ARRAY page of comment-like text (words from a small vocabulary).
void BM_PageStrings(benchmark::State& state) {
  static const char* kWords[] = {"carefully", "final", "deposits", "detect", "slyly", "regular",
                                 "packages", "quickly", "ironic", "accounts", "blithely", "even"};
  auto src = columnar::Vector::Make(columnar::String());
  std::mt19937_64 rng(7);
  for (int64_t i = 0; i < kValues / 4; ++i) {
    std::string text;
    for (int w = 0, n = 2 + static_cast<int>(rng() % 5); w < n; ++w) {
      if (w) text += ' ';
      text += kWords[rng() % 12];
    }
    src->AppendString(text);
  }
  const int64_t n = src->size();
  columnar::Buffer page;
  EncodePlainByteArrays(src->offsets(), src->bytes().data(), n, &page);
  auto out = columnar::Vector::Make(columnar::String());
  RunPage(state, page, [&](const uint8_t* data, int64_t size) {
    out->Clear();
    PlainDecoder dec(data, size);
    Status st = dec.DecodeByteArrays(n, out.get());
    benchmark::DoNotOptimize(st);
  });
}
BENCHMARK(BM_PageStrings)->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(5)->Arg(6)->Arg(7);

// Page CRC over a 256 KiB page: zlib's crc32 (Arg 0, the baseline) vs parquet::Crc32 (Arg 1,
// carry-less multiplication where the CPU has it).
void BM_PageCrc32(benchmark::State& state) {
  std::vector<uint8_t> page(256 << 10);
  std::mt19937_64 rng(5);
  for (auto& b : page) b = static_cast<uint8_t>(rng());
  for (auto _ : state) {
    uint32_t c = state.range(0) == 0 ? static_cast<uint32_t>(crc32_z(0, page.data(), page.size()))
                                     : Crc32(0, page.data(), page.size());
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(page.size()));
  state.SetLabel(state.range(0) == 0 ? "zlib" : (Crc32Accelerated() ? "pclmul" : "zlib fallback"));
}
BENCHMARK(BM_PageCrc32)->Arg(0)->Arg(1);

}  // namespace
}  // namespace shoal::parquet
