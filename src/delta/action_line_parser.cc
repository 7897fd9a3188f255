#include "delta/action_line_parser.h"

#include <cstring>
#include <limits>

#include "columnar/utf8.h"

namespace shoal::delta {
namespace {

constexpr int kMaxSkipDepth = 64;

bool IsWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A position in one line. Every method returns false when the text is not what the fast path
// accepts; the line is then handed to the DOM parser.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : p_(s.data()), end_(s.data() + s.size()) {}

  void SkipWs() {
    while (p_ < end_ && IsWs(*p_)) ++p_;
  }
  bool AtEnd() {
    SkipWs();
    return p_ == end_;
  }
  bool Consume(char c) {
    SkipWs();
    if (p_ < end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool ConsumeLiteral(const char* lit, size_t n) {
    SkipWs();
    if (static_cast<size_t>(end_ - p_) >= n && std::memcmp(p_, lit, n) == 0) {
      p_ += n;
      return true;
    }
    return false;
  }
  bool ConsumeNull() { return ConsumeLiteral("null", 4); }

  bool Bool(bool* out) {
    if (ConsumeLiteral("true", 4)) {
      *out = true;
      return true;
    }
    if (ConsumeLiteral("false", 5)) {
      *out = false;
      return true;
    }
    return false;
  }

  // A JSON integer that fits int64 (floats, exponents and overflow decline: the DOM parser
  // reports them as "not an integer").
  bool Int64(int64_t* out) {
    SkipWs();
    bool neg = false;
    if (p_ < end_ && *p_ == '-') {
      neg = true;
      ++p_;
    }
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
    uint64_t v = 0;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
        uint64_t d = static_cast<uint64_t>(*p_ - '0');
        if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
        v = v * 10 + d;
        ++p_;
      }
    }
    if (p_ < end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || (*p_ >= '0' && *p_ <= '9'))) {
      return false;
    }
    constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (neg) {
      if (v > kMax + 1) return false;
      *out = v == kMax + 1 ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(v);
    } else {
      if (v > kMax) return false;
      *out = static_cast<int64_t>(v);
    }
    return true;
  }

  // A string value decoded into `out` (replacing its content).
  bool String(std::string* out) {
    SkipWs();
    if (p_ >= end_ || *p_ != '"') return false;
    out->clear();
    out->reserve(RawStringLength());
    return ScanString(out);
  }

  // An object key: a view of the raw text when it has no escapes, else of a decoded copy that
  // stays valid until the next Key call.
  bool Key(std::string_view* out) {
    SkipWs();
    if (p_ >= end_ || *p_ != '"') return false;
    const char* start = p_ + 1;
    if (!ScanString(nullptr)) return false;
    std::string_view raw(start, static_cast<size_t>(p_ - 1 - start));
    if (raw.find('\\') == std::string_view::npos) {
      *out = raw;
      return true;
    }
    p_ = start - 1;
    if (!ScanString(&key_scratch_)) return false;
    *out = key_scratch_;
    return true;
  }

  // Validates and skips any JSON value (iteratively, up to kMaxSkipDepth levels).
  bool SkipValue() {
    char closers[kMaxSkipDepth];
    int depth = 0;
    while (true) {
      // One value.
      SkipWs();
      if (p_ >= end_) return false;
      char c = *p_;
      bool opened = false;
      if (c == '{' || c == '[') {
        if (depth == kMaxSkipDepth) return false;
        ++p_;
        char closer = c == '{' ? '}' : ']';
        if (Consume(closer)) {
          // empty container: a complete value
        } else {
          closers[depth++] = closer;
          if (closer == '}' && !MemberKey()) return false;
          opened = true;
        }
      } else if (c == '"') {
        if (!ScanString(nullptr)) return false;
      } else if (c == 't') {
        if (!ConsumeLiteral("true", 4)) return false;
      } else if (c == 'f') {
        if (!ConsumeLiteral("false", 5)) return false;
      } else if (c == 'n') {
        if (!ConsumeNull()) return false;
      } else if (!SkipNumber()) {
        return false;
      }
      if (opened) continue;
      // After a value: close containers or move to the next element.
      while (true) {
        if (depth == 0) return true;
        SkipWs();
        if (p_ >= end_) return false;
        char closer = closers[depth - 1];
        if (*p_ == ',') {
          ++p_;
          if (closer == '}' && !MemberKey()) return false;
          break;
        }
        if (*p_ != closer) return false;
        ++p_;
        --depth;
      }
    }
  }

 private:
  bool MemberKey() {
    SkipWs();
    if (!ScanString(nullptr)) return false;
    return Consume(':');
  }

  // Number grammar; declines exponents and long numbers (the DOM parser may report those as
  // overflowing), so only plain integers and short decimals are skipped here.
  bool SkipNumber() {
    const char* start = p_;
    if (p_ < end_ && *p_ == '-') ++p_;
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E' || (*p_ >= '0' && *p_ <= '9'))) return false;
    return p_ - start <= 18;
  }

  // Bytes between the quotes of the string at p_ (an upper bound of its decoded size).
  size_t RawStringLength() const {
    const char* q = p_ + 1;
    while (true) {
      const void* hit = std::memchr(q, '"', static_cast<size_t>(end_ - q));
      if (!hit) return 0;
      const char* h = static_cast<const char*>(hit);
      size_t slashes = 0;
      for (const char* b = h; b > p_ + 1 && b[-1] == '\\'; --b) ++slashes;
      if (slashes % 2 == 0) return static_cast<size_t>(h - (p_ + 1));
      q = h + 1;
    }
  }

  bool Hex4(uint32_t* out) {
    if (end_ - p_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = p_[i];
      uint32_t d;
      if (c >= '0' && c <= '9') {
        d = static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        d = static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        d = static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
      v = v * 16 + d;
    }
    p_ += 4;
    *out = v;
    return true;
  }

  // One well-formed UTF-8 sequence (Unicode Table 3-7) starting at a byte >= 0x80.
  bool Utf8Sequence() {
    auto b = [&](int i) { return static_cast<unsigned char>(p_[i]); };
    unsigned char c = b(0);
    int n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (end_ - p_ < n + 1) return false;
    if (b(1) < lo || b(1) > hi) return false;
    for (int i = 2; i <= n; ++i) {
      if (b(i) < 0x80 || b(i) > 0xBF) return false;
    }
    p_ += n + 1;
    return true;
  }

  // The string starting at the quote at p_; decoded into `out` (appending) unless null.
  bool ScanString(std::string* out) {
    if (p_ >= end_ || *p_ != '"') return false;
    ++p_;
    while (true) {
      const char* run = p_;
      while (p_ < end_) {
        unsigned char c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      if (out) out->append(run, static_cast<size_t>(p_ - run));
      if (p_ >= end_) return false;
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c < 0x20) return false;
      if (c >= 0x80) {
        const char* seq = p_;
        if (!Utf8Sequence()) return false;
        if (out) out->append(seq, static_cast<size_t>(p_ - seq));
        continue;
      }
      ++p_;  // backslash
      if (p_ >= end_) return false;
      char e = *p_++;
      char plain;
      switch (e) {
        case '"': plain = '"'; break;
        case '\\': plain = '\\'; break;
        case '/': plain = '/'; break;
        case 'b': plain = '\b'; break;
        case 'f': plain = '\f'; break;
        case 'n': plain = '\n'; break;
        case 'r': plain = '\r'; break;
        case 't': plain = '\t'; break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // lone low surrogate
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t low;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
            p_ += 2;
            if (!Hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          if (out) columnar::AppendUtf8(cp, out);
          continue;
        }
        default: return false;
      }
      if (out) out->push_back(plain);
    }
  }

  const char* p_;
  const char* end_;
  std::string key_scratch_;
};

// Calls on_member(key) for each member of the object at the cursor; on_member parses the value.
template <typename F>
bool ForEachMember(Cursor& c, F&& on_member) {
  if (!c.Consume('{')) return false;
  if (c.Consume('}')) return true;
  while (true) {
    std::string_view key;
    if (!c.Key(&key)) return false;
    if (!c.Consume(':')) return false;
    if (!on_member(key)) return false;
    if (c.Consume(',')) continue;
    return c.Consume('}');
  }
}

// Marks field `bit` seen; false on a duplicate key (the DOM keeps the last value: decline).
class SeenFields {
 public:
  bool Mark(int bit) {
    uint32_t m = 1u << bit;
    if (bits_ & m) return false;
    bits_ |= m;
    return true;
  }
  bool Has(int bit) const { return (bits_ & (1u << bit)) != 0; }

 private:
  uint32_t bits_ = 0;
};

bool OptString(Cursor& c, std::optional<std::string>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  out->emplace();
  return c.String(&**out);
}

bool OptInt64(Cursor& c, std::optional<int64_t>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  int64_t v;
  if (!c.Int64(&v)) return false;
  *out = v;
  return true;
}

bool OptBool(Cursor& c, std::optional<bool>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  bool v;
  if (!c.Bool(&v)) return false;
  *out = v;
  return true;
}

// {"k": "v" | null, ...}; duplicate keys decline.
bool PartitionMap(Cursor& c, PartitionValues* out) {
  out->clear();
  return ForEachMember(c, [&](std::string_view key) {
    std::optional<std::string> v;
    if (!OptString(c, &v)) return false;
    return out->emplace(std::string(key), std::move(v)).second;
  });
}

// {"k": "v", ...} where null values are dropped (as the DOM path does); duplicates decline.
bool TagMap(Cursor& c, std::optional<StringMap>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  out->emplace();
  StringMap& m = **out;
  std::vector<std::string> null_keys;
  return ForEachMember(c, [&](std::string_view key) {
    std::string k(key);
    if (m.count(k)) return false;
    for (const auto& n : null_keys) {
      if (n == k) return false;
    }
    if (c.ConsumeNull()) {
      null_keys.push_back(std::move(k));
      return true;
    }
    std::string v;
    if (!c.String(&v)) return false;
    m.emplace(std::move(k), std::move(v));
    return true;
  });
}

bool DeletionVector(Cursor& c, std::optional<DeletionVectorDescriptor>* out) {
  if (c.ConsumeNull()) {
    out->reset();
    return true;
  }
  DeletionVectorDescriptor d;
  SeenFields seen;
  std::string storage;
  std::optional<int64_t> offset, max_row_index;
  int64_t size = 0;
  bool ok = ForEachMember(c, [&](std::string_view key) {
    if (key == "storageType") return seen.Mark(0) && c.String(&storage);
    if (key == "pathOrInlineDv") return seen.Mark(1) && c.String(&d.path_or_inline_dv);
    if (key == "offset") return seen.Mark(2) && OptInt64(c, &offset);
    if (key == "sizeInBytes") return seen.Mark(3) && c.Int64(&size);
    if (key == "cardinality") return seen.Mark(4) && c.Int64(&d.cardinality);
    if (key == "maxRowIndex") return seen.Mark(5) && OptInt64(c, &d.max_row_index);
    return c.SkipValue();
  });
  if (!ok || !seen.Has(0) || !seen.Has(1) || !seen.Has(3) || !seen.Has(4)) return false;
  if (storage.size() != 1 || (storage[0] != 'u' && storage[0] != 'i' && storage[0] != 'p')) {
    return false;
  }
  d.storage_type = storage[0];
  if (offset) {
    if (*offset < 0 || *offset > std::numeric_limits<int32_t>::max()) return false;
    d.offset = static_cast<int32_t>(*offset);
  }
  if (size < 0 || size > std::numeric_limits<int32_t>::max()) return false;
  d.size_in_bytes = static_cast<int32_t>(size);
  if (d.cardinality < 0) return false;
  *out = std::move(d);
  return true;
}

bool ParseAddBody(Cursor& c, AddFile* a) {
  SeenFields seen;
  bool ok = ForEachMember(c, [&](std::string_view key) {
    switch (key.size()) {
      case 4:
        if (key == "path") return seen.Mark(0) && c.String(&a->path);
        if (key == "size") return seen.Mark(2) && c.Int64(&a->size);
        if (key == "tags") return seen.Mark(6) && TagMap(c, &a->tags);
        break;
      case 5:
        if (key == "stats") return seen.Mark(5) && OptString(c, &a->stats);
        break;
      case 9:
        if (key == "baseRowId") return seen.Mark(8) && OptInt64(c, &a->base_row_id);
        break;
      case 10:
        if (key == "dataChange") return seen.Mark(4) && c.Bool(&a->data_change);
        break;
      case 14:
        if (key == "deletionVector") return seen.Mark(7) && DeletionVector(c, &a->deletion_vector);
        break;
      case 15:
        if (key == "partitionValues") return seen.Mark(1) && PartitionMap(c, &a->partition_values);
        break;
      case 16:
        if (key == "modificationTime") return seen.Mark(3) && c.Int64(&a->modification_time);
        break;
      case 18:
        if (key == "clusteringProvider") return seen.Mark(10) && OptString(c, &a->clustering_provider);
        break;
      case 23:
        if (key == "defaultRowCommitVersion") {
          return seen.Mark(9) && OptInt64(c, &a->default_row_commit_version);
        }
        break;
      default: break;
    }
    return c.SkipValue();
  });
  // path, partitionValues, size, modificationTime and dataChange are required.
  return ok && seen.Has(0) && seen.Has(1) && seen.Has(2) && seen.Has(3) && seen.Has(4);
}

bool ParseRemoveBody(Cursor& c, RemoveFile* r) {
  SeenFields seen;
  bool ok = ForEachMember(c, [&](std::string_view key) {
    if (key == "path") return seen.Mark(0) && c.String(&r->path);
    if (key == "deletionTimestamp") return seen.Mark(1) && OptInt64(c, &r->deletion_timestamp);
    if (key == "dataChange") return seen.Mark(2) && c.Bool(&r->data_change);
    if (key == "extendedFileMetadata") return seen.Mark(3) && OptBool(c, &r->extended_file_metadata);
    if (key == "partitionValues") {
      if (!seen.Mark(4)) return false;
      if (c.ConsumeNull()) {
        r->partition_values.reset();
        return true;
      }
      r->partition_values.emplace();
      return PartitionMap(c, &*r->partition_values);
    }
    if (key == "size") return seen.Mark(5) && OptInt64(c, &r->size);
    if (key == "tags") return seen.Mark(6) && TagMap(c, &r->tags);
    if (key == "deletionVector") return seen.Mark(7) && DeletionVector(c, &r->deletion_vector);
    if (key == "baseRowId") return seen.Mark(8) && OptInt64(c, &r->base_row_id);
    if (key == "defaultRowCommitVersion") {
      return seen.Mark(9) && OptInt64(c, &r->default_row_commit_version);
    }
    if (key == "stats") return seen.Mark(10) && OptString(c, &r->stats);
    return c.SkipValue();
  });
  return ok && seen.Has(0) && seen.Has(2);
}

}  // namespace

std::optional<Action> TryParseFileActionLine(std::string_view line) {
  Cursor c(line);
  if (!c.Consume('{')) return std::nullopt;
  std::string_view kind;
  if (!c.Key(&kind) || !c.Consume(':')) return std::nullopt;
  std::optional<Action> out;
  if (kind == "add") {
    AddFile a;
    if (!ParseAddBody(c, &a)) return std::nullopt;
    out.emplace(std::in_place_type<AddFile>, std::move(a));
  } else if (kind == "remove") {
    RemoveFile r;
    if (!ParseRemoveBody(c, &r)) return std::nullopt;
    out.emplace(std::in_place_type<RemoveFile>, std::move(r));
  } else {
    return std::nullopt;
  }
  // Exactly one member: other members could be another (or a repeated) action kind.
  if (!c.Consume('}') || !c.AtEnd()) return std::nullopt;
  return out;
}

}  // namespace shoal::delta
