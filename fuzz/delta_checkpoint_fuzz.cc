// libFuzzer target for Parquet checkpoints: the input is a checkpoint file's bytes, read by the
// snapshot loader's checkpoint reader (column-wise add/remove decoding, generic rows for the
// other actions), once as actions and once as the snapshot load reads it (add rows as FileLists,
// every file then built back into an AddFile). Any error Status is fine; a crash, sanitizer report or runaway allocation is
// a finding. Seeds: the delta-golden tables' checkpoints (scripts/fuzz.sh).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "delta/parquet_checkpoint_reader.h"
#include "io/memory_file_system.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal;
  io::MemoryFileSystem fs;
  const char* path = "/t/_delta_log/00000000000000000010.checkpoint.parquet";
  if (!fs.PutIfAbsent(path, std::string_view(reinterpret_cast<const char*>(data), size)).ok()) return 0;
  delta::ParquetCheckpointReader reader(/*generic_rows=*/false, /*threads=*/1);
  int64_t actions = 0;
  (void)reader.Read(fs, path, [&](delta::Action&&) {
    ++actions;
    return Status::OK();
  });
  delta::FileList all;
  delta::FileListSink files = [&](delta::FileList&& list) {
    all.AppendList(std::move(list));
    return Status::OK();
  };
  (void)reader.ReadWithFiles(
      fs, path,
      [&](delta::Action&&) {
        ++actions;
        return Status::OK();
      },
      files);
  for (size_t i = 0; i < all.size(); ++i) actions += all.Get(i).path.empty() ? 0 : 1;
  return 0;
}
