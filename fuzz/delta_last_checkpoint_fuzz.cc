// libFuzzer target for `_delta_log/_last_checkpoint`: the input is that file's bytes, next to a
// small table whose version 1 has a V2 checkpoint (JSON top-level file and a JSON sidecar), so a
// parsed `v2Checkpoint` with inlined non-file actions and sidecar list reaches the checkpoint
// loader. Any error Status is fine; a crash, sanitizer report or runaway allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "delta/snapshot.h"
#include "io/memory_file_system.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal;
  auto fs = std::make_shared<io::MemoryFileSystem>();
  const std::string log = "/t/_delta_log/";
  const std::string protocol = R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["v2Checkpoint"],"writerFeatures":["v2Checkpoint"]}})";
  const std::string metadata =
      R"({"metaData":{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[]}","partitionColumns":[],"configuration":{}}})";
  const std::string sidecar = R"({"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":1,"dataChange":false}})" "\n";
  (void)fs->PutIfAbsent(log + "00000000000000000000.json", protocol + "\n" + metadata + "\n");
  (void)fs->PutIfAbsent(log + "00000000000000000001.json", R"({"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}})" "\n");
  (void)fs->PutIfAbsent(log + "_sidecars/s.json", sidecar);
  (void)fs->PutIfAbsent(log + "00000000000000000001.checkpoint.00000000-0000-0000-0000-000000000001.json",
                        R"({"checkpointMetadata":{"version":1}})" "\n" + protocol + "\n" + metadata + "\n" +
                            R"({"sidecar":{"path":"s.json","sizeInBytes":)" + std::to_string(sidecar.size()) +
                            R"(,"modificationTime":1}})" "\n");
  (void)fs->PutIfAbsent(log + "_last_checkpoint", std::string_view(reinterpret_cast<const char*>(data), size));
  delta::SnapshotOptions o;
  o.threads = 1;
  auto snap = delta::Snapshot::Load(fs, "/t", o);
  if (snap.ok()) (void)(*snap)->num_files();
  return 0;
}
