// Delta log actions (PROTOCOL.md "Actions"): typed structs, parsing of one commit file
// (newline-delimited JSON) and serialization back to the JSON forms Spark writes.
//
// Parsing is forward compatible: unknown action kinds and unknown fields are ignored. Missing
// required fields or wrong types are Corruption naming the file and line.
// Thread-safety: plain values and free functions; safe to use from many threads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "delta/json_fields.h"
#include "shoal/status.h"

namespace shoal::delta {

using StringMap = std::map<std::string, std::string>;
// Partition values: a null value means the partition column is null for this file.
using PartitionValues = std::map<std::string, std::optional<std::string>>;

struct Protocol {
  int32_t min_reader_version = 1;
  int32_t min_writer_version = 2;
  // Present only for reader version 3 / writer version 7 (table features).
  std::optional<std::vector<std::string>> reader_features;
  std::optional<std::vector<std::string>> writer_features;
  bool operator==(const Protocol&) const = default;
};

struct Format {
  std::string provider = "parquet";
  StringMap options;
  bool operator==(const Format&) const = default;
};

struct Metadata {
  std::string id;
  std::optional<std::string> name;
  std::optional<std::string> description;
  Format format;
  std::string schema_string;
  std::vector<std::string> partition_columns;
  StringMap configuration;
  std::optional<int64_t> created_time;
  bool operator==(const Metadata&) const = default;
};

// Where a file's deleted-row bitmap lives (PROTOCOL.md "Deletion Vector Descriptor Schema").
struct DeletionVectorDescriptor {
  char storage_type = 'u';     // 'u' relative (UUID), 'i' inline, 'p' absolute path
  std::string path_or_inline_dv;
  std::optional<int32_t> offset;  // absent for inline DVs
  int32_t size_in_bytes = 0;
  int64_t cardinality = 0;
  std::optional<int64_t> max_row_index;  // rarely written; kept for round trips
  bool operator==(const DeletionVectorDescriptor&) const = default;

  // storageType + pathOrInlineDv (+ "@" + offset): identifies the DV for log replay.
  std::string UniqueId() const;
};

struct AddFile {
  std::string path;
  PartitionValues partition_values;
  int64_t size = 0;
  int64_t modification_time = 0;
  bool data_change = true;
  std::optional<std::string> stats;  // raw stats JSON text, as stored in the log
  std::optional<StringMap> tags;
  std::optional<DeletionVectorDescriptor> deletion_vector;
  std::optional<int64_t> base_row_id;
  std::optional<int64_t> default_row_commit_version;
  std::optional<std::string> clustering_provider;
  bool operator==(const AddFile&) const = default;

  // UniqueId() of the DV, or "" without one.
  std::string DvUniqueId() const { return deletion_vector ? deletion_vector->UniqueId() : ""; }
};

struct RemoveFile {
  std::string path;
  std::optional<int64_t> deletion_timestamp;
  bool data_change = true;
  std::optional<bool> extended_file_metadata;
  std::optional<PartitionValues> partition_values;
  std::optional<int64_t> size;
  std::optional<StringMap> tags;
  std::optional<DeletionVectorDescriptor> deletion_vector;
  std::optional<int64_t> base_row_id;
  std::optional<int64_t> default_row_commit_version;
  std::optional<std::string> stats;
  bool operator==(const RemoveFile&) const = default;

  std::string DvUniqueId() const { return deletion_vector ? deletion_vector->UniqueId() : ""; }
};

struct AddCdcFile {
  std::string path;
  PartitionValues partition_values;
  int64_t size = 0;
  std::optional<StringMap> tags;
  bool data_change = false;
  bool operator==(const AddCdcFile&) const = default;
};

// Application transaction id (SetTransaction): the last version an app committed.
struct Txn {
  std::string app_id;
  int64_t version = 0;
  std::optional<int64_t> last_updated;
  bool operator==(const Txn&) const = default;
};

// commitInfo is free-form; the whole object is kept, with typed accessors for known fields.
struct CommitInfo {
  Json json = Json::object();
  bool operator==(const CommitInfo&) const = default;

  std::optional<int64_t> Timestamp() const { return Int("timestamp"); }
  std::optional<int64_t> InCommitTimestamp() const { return Int("inCommitTimestamp"); }
  std::optional<int64_t> ReadVersion() const { return Int("readVersion"); }
  std::optional<std::string> Operation() const { return Str("operation"); }
  std::optional<std::string> IsolationLevel() const { return Str("isolationLevel"); }
  std::optional<std::string> TxnId() const { return Str("txnId"); }
  std::optional<bool> IsBlindAppend() const;
  // operationParameters values as strings (non-string values are dumped as JSON).
  StringMap OperationParameters() const;

 private:
  std::optional<int64_t> Int(std::string_view key) const;
  std::optional<std::string> Str(std::string_view key) const;
};

struct DomainMetadata {
  std::string domain;
  std::string configuration;
  bool removed = false;
  bool operator==(const DomainMetadata&) const = default;
};

// First action of a V2 checkpoint.
struct CheckpointMetadata {
  int64_t version = 0;
  std::optional<StringMap> tags;
  bool operator==(const CheckpointMetadata&) const = default;
};

// A V2 checkpoint's pointer to a file of add/remove actions in _delta_log/_sidecars/.
struct Sidecar {
  std::string path;
  int64_t size_in_bytes = 0;
  int64_t modification_time = 0;
  std::optional<StringMap> tags;
  bool operator==(const Sidecar&) const = default;
};

using Action = std::variant<Protocol, Metadata, AddFile, RemoveFile, AddCdcFile, Txn, CommitInfo,
                            DomainMetadata, CheckpointMetadata, Sidecar>;

// Parses one action line. Returns std::nullopt for a blank line or an unknown action kind.
// Errors are Corruption without file/line context (ParseCommitFile adds it). add/remove lines
// take the streaming fast path (action_line_parser.h), everything else the JSON DOM.
Result<std::optional<Action>> ParseActionLine(std::string_view line);
// The same through the JSON DOM only: the reference for the fast path (tests, fuzzing, benches).
Result<std::optional<Action>> ParseActionLineDom(std::string_view line);
// Parses an already-parsed action object ({"add": {...}}).
Result<std::optional<Action>> ParseActionJson(const Json& obj);
// Parses one DV descriptor object.
Result<DeletionVectorDescriptor> ParseDeletionVector(const Json& obj);

// Parses a whole commit (or JSON checkpoint) file; `file` names it in errors
// ("<file>: line N: ...").
Result<std::vector<Action>> ParseCommitFile(std::string_view text, std::string_view file);

// Calls `sink` for every action of a newline-delimited JSON file, without collecting them.
// `dom_only` forces the DOM parser (for comparisons against the fast path).
template <typename Sink>
Status ForEachActionInText(std::string_view text, std::string_view file, Sink&& sink,
                           bool dom_only = false) {
  size_t pos = 0;
  int64_t line_no = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    auto parsed = dom_only ? ParseActionLineDom(line) : ParseActionLine(line);
    if (!parsed.ok()) {
      return parsed.status().WithContext(std::string(file) + ": line " + std::to_string(line_no));
    }
    if (parsed->has_value()) RETURN_NOT_OK(sink(std::move(**parsed)));
  }
  return Status::OK();
}

// Serializes one action as Spark writes it: {"add":{...}} on one line, no trailing newline.
std::string SerializeAction(const Action& action);
Json ActionToJson(const Action& action);
Json DeletionVectorToJson(const DeletionVectorDescriptor& dv);
// Serializes actions as a commit file: one action per line, each line ending in '\n'.
std::string SerializeCommit(const std::vector<Action>& actions);

// Name of the action kind ("add", "metaData", ...), as it appears in the log.
const char* ActionKindName(const Action& action);

}  // namespace shoal::delta
