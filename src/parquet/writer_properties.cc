#include "parquet/writer_properties.h"

#include <algorithm>

namespace shoal::parquet {

std::string DefaultCreatedBy() { return "shoal version 0.1.0 (build " __DATE__ ")"; }

const WriterProperties& WriterProperties::Defaults() {
  static const WriterProperties kDefaults = Builder().Build();
  return kDefaults;
}

ColumnProperties WriterProperties::column(const std::string& path) const {
  ColumnProperties c = default_column_;
  if (overrides_.empty()) return c;
  // Apply overrides from the outermost ancestor to the leaf, so the most specific wins.
  std::vector<std::string> prefixes;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '.') prefixes.push_back(path.substr(0, i));
  }
  for (const std::string& p : prefixes) {
    auto it = overrides_.find(p);
    if (it == overrides_.end()) continue;
    const Override& o = it->second;
    if (o.codec) c.codec = *o.codec;
    if (o.compression_level) c.compression_level = *o.compression_level;
    if (o.dictionary) c.dictionary = *o.dictionary;
    if (o.encoding) c.encoding = *o.encoding;
    if (o.statistics) c.statistics = *o.statistics;
    if (o.page_index) c.page_index = *o.page_index;
    if (o.bloom_filter) c.bloom_filter = *o.bloom_filter;
    if (o.bloom_ndv) c.bloom_ndv = *o.bloom_ndv;
    if (o.bloom_fpp) c.bloom_fpp = *o.bloom_fpp;
  }
  return c;
}

using B = WriterProperties::Builder;

B& B::max_row_group_rows(int64_t n) { p_.max_row_group_rows_ = std::max<int64_t>(1, n); return *this; }
B& B::max_row_group_bytes(int64_t n) { p_.max_row_group_bytes_ = std::max<int64_t>(1, n); return *this; }
B& B::data_page_bytes(int64_t n) { p_.data_page_bytes_ = std::max<int64_t>(1, n); return *this; }
B& B::data_page_rows(int64_t n) { p_.data_page_rows_ = std::max<int64_t>(1, n); return *this; }
B& B::dictionary_page_bytes(int64_t n) { p_.dictionary_page_bytes_ = std::max<int64_t>(0, n); return *this; }
B& B::data_page_version(DataPageVersion v) { p_.data_page_version_ = v; return *this; }
B& B::page_crc(bool on) { p_.page_crc_ = on; return *this; }
B& B::statistics_truncate_bytes(int64_t n) { p_.statistics_truncate_bytes_ = std::max<int64_t>(0, n); return *this; }
B& B::created_by(std::string s) { p_.created_by_ = std::move(s); return *this; }
B& B::key_value(std::string key, std::string value) {
  p_.key_value_metadata_.push_back(KeyValue{std::move(key), std::move(value)});
  return *this;
}
B& B::sorting_column(std::string path, bool descending, bool nulls_first) {
  p_.sorting_columns_.push_back(SortingColumnSpec{std::move(path), descending, nulls_first});
  return *this;
}
B& B::field_id(std::string path, int32_t id) { p_.field_ids_[std::move(path)] = id; return *this; }

B& B::compression(CompressionCodec codec, int level) {
  p_.default_column_.codec = codec;
  p_.default_column_.compression_level = level;
  return *this;
}
B& B::compression_level(int level) { p_.default_column_.compression_level = level; return *this; }
B& B::dictionary(bool on) { p_.default_column_.dictionary = on; return *this; }
B& B::encoding(Encoding e) { p_.default_column_.encoding = e; return *this; }
B& B::statistics(bool on) { p_.default_column_.statistics = on; return *this; }
B& B::page_index(bool on) { p_.default_column_.page_index = on; return *this; }

B& B::compression(const std::string& path, CompressionCodec codec, int level) {
  p_.overrides_[path].codec = codec;
  p_.overrides_[path].compression_level = level;
  return *this;
}
B& B::dictionary(const std::string& path, bool on) { p_.overrides_[path].dictionary = on; return *this; }
B& B::encoding(const std::string& path, Encoding e) { p_.overrides_[path].encoding = e; return *this; }
B& B::statistics(const std::string& path, bool on) { p_.overrides_[path].statistics = on; return *this; }
B& B::page_index(const std::string& path, bool on) { p_.overrides_[path].page_index = on; return *this; }
B& B::bloom_filter(const std::string& path, int64_t ndv, double fpp) {
  Override& o = p_.overrides_[path];
  o.bloom_filter = true;
  o.bloom_ndv = std::max<int64_t>(1, ndv);
  o.bloom_fpp = (fpp > 0 && fpp < 1) ? fpp : 0.01;
  return *this;
}
B& B::disable_bloom_filter(const std::string& path) { p_.overrides_[path].bloom_filter = false; return *this; }

WriterProperties B::Build() const {
  WriterProperties p = p_;
  if (p.created_by_.empty()) p.created_by_ = DefaultCreatedBy();
  return p;
}

}  // namespace shoal::parquet
