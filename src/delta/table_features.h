// Table features and protocol versions (PROTOCOL.md "Table Features", "Reader/Writer Version
// Requirements"): which features a protocol requires and whether shoal can read or write it.
//
// Legacy protocols (reader 1..2, writer 1..6) imply fixed feature sets; reader 3 / writer 7
// list their features explicitly.
// Thread-safety: immutable data and free functions; safe from many threads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "delta/actions.h"
#include "shoal/status.h"

namespace shoal::delta {

struct TableFeature {
  std::string_view name;
  bool reader_writer;  // false: writer-only feature
  bool shoal_reads;    // shoal reads tables with this (reader) feature correctly
  bool shoal_writes;   // shoal honours this feature when writing
};

// Every feature shoal knows, in a stable order.
const std::vector<TableFeature>& KnownTableFeatures();
// nullptr when the name is unknown.
const TableFeature* FindTableFeature(std::string_view name);

constexpr int kMaxReaderVersion = 3;
constexpr int kMaxWriterVersion = 7;

// Reader features the protocol requires (explicit for reader 3, implied for 1..2).
std::vector<std::string> RequiredReaderFeatures(const Protocol& protocol);
// Writer features the protocol requires (explicit for writer 7, implied for 1..6).
std::vector<std::string> RequiredWriterFeatures(const Protocol& protocol);
bool ProtocolHasReaderFeature(const Protocol& protocol, std::string_view feature);
bool ProtocolHasWriterFeature(const Protocol& protocol, std::string_view feature);

// NotSupported naming the version or the first feature shoal cannot read/write.
Status CheckCanRead(const Protocol& protocol);
Status CheckCanWrite(const Protocol& protocol);

}  // namespace shoal::delta
