// Driver for bench/parquet_vs_duckdb.sh: times shoal reading a whole Parquet file and writing
// rows back out, printing "median_ms=<x> min_ms=<y>" to stderr like duckq.mjs --repeat.
//
//   bench_parquet_rw read <file> [runs] [cols]     decode every column (or the comma-separated
//                                                  top-level columns `cols`) of every row group,
//                                                  streaming batches of 8192 rows (as a scan
//                                                  does): the decompression+decode limit of a
//                                                  scan of those columns (bench/scan_bench.sh)
//   bench_parquet_rw read-all <file> [runs]        the same, materializing the whole file
//   bench_parquet_rw decompress <files> [runs] [cols]  only read and decompress every page of
//                                                  those columns in the comma-separated files,
//                                                  without decoding: what any scan that touches
//                                                  every page pays at least (bench/scan_bench.sh
//                                                  bounds Prewhere's possible gain with it)
//   bench_parquet_rw write <in> <out> [runs]       read <in> (untimed), time writing it to <out>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "parquet/file_reader.h"
#include "parquet/file_writer.h"
#include "parquet/page_reader.h"
#include "shoal/allocator.h"

using namespace shoal;

namespace {

double NowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Report(std::vector<double> t, const char* what, int64_t rows) {
  std::sort(t.begin(), t.end());
  std::fprintf(stderr, "median_ms=%.3f min_ms=%.3f\n", t[t.size() / 2], t[0]);
  std::printf("%s rows=%lld median_ms=%.3f\n", what, static_cast<long long>(rows), t[t.size() / 2]);
}

int Fail(const Status& st) {
  std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
  return 1;
}

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from <= s.size()) {
    size_t to = s.find(',', from);
    if (to == std::string::npos) to = s.size();
    if (to > from) out.push_back(s.substr(from, to - from));
    from = to + 1;
  }
  return out;
}

// Whether top-level column `name` is among `columns` (every column when it is empty).
bool Wanted(const std::vector<std::string>& columns, const std::string& name) {
  return columns.empty() || std::find(columns.begin(), columns.end(), name) != columns.end();
}

// Decodes every column of every row group in batches of kBatchRows, dropping each batch once
// decoded: what a scan pays, without holding the whole file in memory.
Status StreamAll(const parquet::ParquetReader& reader, const std::string& columns, int64_t* rows) {
  constexpr int64_t kBatchRows = 8192;
  const auto& schema_fields = reader.schema()->fields;
  std::vector<int> fields;
  const std::vector<std::string> wanted = SplitCommas(columns);
  for (size_t i = 0; i < schema_fields.size(); ++i) {
    if (Wanted(wanted, schema_fields[i].name)) {
      fields.push_back(static_cast<int>(i));
    }
  }
  if (fields.empty()) return Status::InvalidArgument("no column of the file is in '" + columns + "'");
  for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
    auto group = reader.OpenRowGroup(rg, fields);
    if (!group.ok()) return group.status();
    for (;;) {
      auto batch = (*group)->ReadBatch(kBatchRows);
      if (!batch.ok()) return batch.status();
      if (*batch == nullptr) break;
      *rows += (*batch)->num_rows;
    }
  }
  return Status::OK();
}

// Reads and decompresses every page (dictionary and data) of the leaves under the top-level
// columns `columns` (all when empty) in every row group of `path`; counts the pages.
Status DecompressAll(const std::shared_ptr<io::FileSystem>& fs, const std::string& path, const std::string& columns,
                     int64_t* pages) {
  auto reader = parquet::ParquetReader::Open(fs, path);
  if (!reader.ok()) return reader.status();
  const parquet::ParquetReader& r = **reader;
  const std::vector<std::string> wanted = SplitCommas(columns);
  columnar::Buffer out;
  for (int rg = 0; rg < r.num_row_groups(); ++rg) {
    for (int leaf = 0; leaf < r.parquet_schema().num_leaves(); ++leaf) {
      const std::string& name = r.parquet_schema().leaves()[leaf].dotted_path;
      const std::string top = name.substr(0, name.find('.'));
      if (!Wanted(wanted, top)) continue;
      const parquet::ColumnChunk& chunk = r.column_chunk(rg, leaf);
      if (!chunk.meta_data) return Status::Corruption("column chunk without metadata in " + path);
      parquet::ReadStats stats;
      auto pr = parquet::PageReader::Make(r.file(), *chunk.meta_data, name, nullptr, r.options(), &stats);
      if (!pr.ok()) return pr.status();
      parquet::Page page;
      for (;;) {
        auto more = (*pr)->Next(&page);
        if (!more.ok()) return more.status();
        if (!*more) break;
        Status st = (*pr)->Decompress(page, &out);
        if (!st.ok()) return st;
        ++*pages;
      }
    }
  }
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s read <file> [runs] [cols] | read-all <file> [runs] | decompress <files> [runs] [cols] | "
                 "write <in> <out> [runs]\n", argv[0]);
    return 2;
  }
  TuneAllocator();  // as Database::Open does by default
  auto fs = io::LocalFileSystem();
  std::string mode = argv[1];
  if (mode == "read" || mode == "read-all") {
    int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    std::vector<double> times;
    int64_t rows = 0;
    for (int r = 0; r < runs; ++r) {
      double t0 = NowMs();
      auto reader = parquet::ParquetReader::Open(fs, argv[2]);
      if (!reader.ok()) return Fail(reader.status());
      rows = 0;
      if (mode == "read-all") {
        auto batches = (*reader)->ReadAll();
        if (!batches.ok()) return Fail(batches.status());
        for (const auto& b : *batches) rows += b->num_rows;
      } else {
        Status st = StreamAll(**reader, argc > 4 ? argv[4] : "", &rows);
        if (!st.ok()) return Fail(st);
      }
      times.push_back(NowMs() - t0);
    }
    Report(times, mode == "read" ? "shoal_read" : "shoal_read_all", rows);
    return 0;
  }
  if (mode == "decompress") {
    int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    std::vector<double> times;
    int64_t pages = 0;
    for (int r = 0; r < runs; ++r) {
      double t0 = NowMs();
      pages = 0;
      for (const std::string& file : SplitCommas(argv[2])) {
        Status st = DecompressAll(fs, file, argc > 4 ? argv[4] : "", &pages);
        if (!st.ok()) return Fail(st);
      }
      times.push_back(NowMs() - t0);
    }
    Report(times, "shoal_decompress_pages", pages);
    return 0;
  }
  if (mode == "write" && argc >= 4) {
    int runs = argc > 4 ? std::atoi(argv[4]) : 3;
    auto reader = parquet::ParquetReader::Open(fs, argv[2]);
    if (!reader.ok()) return Fail(reader.status());
    auto batches = (*reader)->ReadAll();
    if (!batches.ok()) return Fail(batches.status());
    int64_t rows = 0;
    for (const auto& b : *batches) rows += b->num_rows;
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
      double t0 = NowMs();
      auto w = parquet::ParquetWriter::Open(fs, argv[3], *(*reader)->schema());
      if (!w.ok()) return Fail(w.status());
      for (const auto& b : *batches) {
        Status st = (*w)->WriteBatch(*b);
        if (!st.ok()) return Fail(st);
      }
      auto meta = (*w)->Close();
      if (!meta.ok()) return Fail(meta.status());
      times.push_back(NowMs() - t0);
    }
    Report(times, "shoal_write", rows);
    return 0;
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
