// libFuzzer target for whole Parquet files: the input is a file's bytes. Opens it (magic,
// footer, metadata, schema), reads every column chunk's page index, then reads every row group
// twice — whole batches, and column-wise with skips and a sparse selection (the late
// materialization path) — so footer, page header, decompression and every decoder see hostile
// bytes. Any error Status is fine; a crash, sanitizer report, hang or runaway allocation is a
// finding. Seeds: the parquet-testing files (scripts/fuzz.sh).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "io/memory_file_system.h"
#include "parquet/file_reader.h"

namespace {

void ReadColumnWise(const shoal::parquet::ParquetReader& reader, int rg) {
  std::vector<int> fields;
  for (int f = 0; f < static_cast<int>(reader.schema()->fields.size()); ++f) fields.push_back(f);
  auto group = reader.OpenRowGroup(rg, fields);
  if (!group.ok()) return;
  int64_t rows = (*group)->num_rows();
  for (int i = 0; i < (*group)->num_fields(); ++i) {
    // First third skipped, then every 7th row of the next third, then the rest whole.
    int64_t skip = rows / 3;
    if (!(*group)->SkipField(i, skip).ok()) continue;
    int64_t span = rows / 3;
    std::vector<uint32_t> sel;
    for (int64_t r = 0; r < span; r += 7) sel.push_back(static_cast<uint32_t>(r));
    if (!(*group)->ReadFieldSelected(i, span, sel.data(), static_cast<int64_t>(sel.size())).ok()) continue;
    (void)(*group)->ReadField(i, rows - skip - span);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal;
  auto fs = std::make_shared<io::MemoryFileSystem>();
  if (!fs->PutIfAbsent("/f.parquet", std::string_view(reinterpret_cast<const char*>(data), size)).ok()) return 0;
  parquet::ReaderOptions options;
  options.verify_crc = false;  // reach the decoders behind mutated pages
  options.batch_rows = 4096;
  auto reader = parquet::ParquetReader::Open(fs, "/f.parquet", options);
  if (!reader.ok()) return 0;
  const auto& r = **reader;
  for (int rg = 0; rg < r.num_row_groups(); ++rg) {
    for (int leaf = 0; leaf < static_cast<int>(r.metadata().row_groups[rg].columns.size()); ++leaf) {
      (void)r.ReadColumnIndex(rg, leaf);
      (void)r.ReadOffsetIndex(rg, leaf);
    }
    auto group = r.OpenRowGroup(rg, {});
    if (group.ok()) {
      std::vector<int> all;
      for (int f = 0; f < static_cast<int>(r.schema()->fields.size()); ++f) all.push_back(f);
      auto whole = r.OpenRowGroup(rg, all);
      if (whole.ok()) {
        for (;;) {
          auto batch = (*whole)->ReadBatch();
          if (!batch.ok() || *batch == nullptr) break;
        }
      }
    }
    ReadColumnWise(r, rg);
  }
  return 0;
}
