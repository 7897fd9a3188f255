// libFuzzer target for the import of Arrow C streams (Connection::RegisterArrowStream, the Python
// module's register): the input bytes choose a schema tree (formats valid and invalid, nesting,
// flags, dictionaries), batches whose arrays follow or break it (lengths, offsets, null counts,
// buffer counts, child counts) and the contents of every buffer (offsets that decrease, overrun
// or are negative; values out of range). Buffers have the sizes the C Data Interface implies for
// the declared length and offset, as a conforming producer's do, so any read past them is the
// importer's fault. The stream is read to its end through ReadArrowStream; an error Status is
// fine, a crash or sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "shoal/arrow_c.h"
#include "sql/functions/arrow_stream_source.h"

namespace {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  uint8_t U8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  uint32_t U32() { return U8() | (uint32_t{U8()} << 8) | (uint32_t{U8()} << 16) | (uint32_t{U8()} << 24); }
  int64_t I64() { return static_cast<int64_t>(uint64_t{U32()} | (uint64_t{U32()} << 32)); }
  // False once the input is used up, so generation always ends.
  bool Chance(int in256) { return n_ > 0 && U8() < in256; }
  void Fill(uint8_t* out, size_t size) {
    for (size_t i = 0; i < size; ++i) out[i] = U8();
  }

 private:
  const uint8_t* p_;
  size_t n_;
};

const char* const kFormats[] = {
    "n",     "b",      "c",        "s",       "i",     "l",        "C",       "S",       "I",    "L",
    "f",     "g",      "u",        "U",       "z",     "Z",        "tdD",     "tdm",     "tts",  "ttm",
    "ttu",   "ttn",    "tss:",     "tsm:",    "tsu:",  "tsn:UTC",  "tsu:+01:00", "d:10,2", "d:38,10", "d:18,0,128",
    "d:5,7", "d:40,2", "d:9,2,256", "d:x",    "+l",    "+L",       "+s",      "+m",      "+w:3", "+ud:0,1",
    "e",     "",       "tsq:",     "vu",      "+vl",   "w:16",     "tDs",     "+r",
};
constexpr int kNumFormats = sizeof(kFormats) / sizeof(kFormats[0]);

// Everything a test case allocates; freed when the case ends (after the stream is released).
struct Arena {
  std::deque<std::string> strings;
  std::deque<std::vector<uint8_t>> buffers;
  std::deque<ArrowSchema> schemas;
  std::deque<std::vector<ArrowSchema*>> schema_lists;
  std::deque<ArrowArray> arrays;
  std::deque<std::vector<ArrowArray*>> array_lists;
  std::deque<std::vector<const void*>> buffer_lists;
};

void ReleaseSchema(ArrowSchema* s) { s->release = nullptr; }
void ReleaseArray(ArrowArray* a) { a->release = nullptr; }

ArrowSchema* MakeSchema(Input& in, Arena& arena, int depth) {
  ArrowSchema& s = arena.schemas.emplace_back();
  std::memset(&s, 0, sizeof(s));
  uint8_t pick = in.U8();
  if (pick == 255) {
    // A format string of raw bytes.
    std::string f;
    for (int i = in.U8() % 6; i > 0; --i) f.push_back(static_cast<char>(in.U8() | 1));
    s.format = arena.strings.emplace_back(f).c_str();
  } else if (pick == 254) {
    s.format = nullptr;
  } else {
    // Nested formats grow rarer with depth, so trees stay small.
    int f = pick % kNumFormats;
    if (depth > 3 && kFormats[f][0] == '+') f = 4;  // "i"
    s.format = kFormats[f];
  }
  s.name = in.Chance(16) ? nullptr : arena.strings.emplace_back("c" + std::to_string(in.U8() % 8)).c_str();
  s.flags = in.Chance(160) ? ARROW_FLAG_NULLABLE : 0;
  std::string_view f = s.format ? s.format : "";
  s.release = ReleaseSchema;
  if (depth > 8) return &s;  // deep enough: the importer's own limit is tested by a unit test
  int64_t children = 0;
  if (f == "+l" || f == "+L" || f == "+m") children = in.Chance(240) ? 1 : in.U8() % 3;
  if (f == "+s" || f == "+ud:0,1") children = in.U8() % 4;
  if (f == "+w:3") children = 1;
  if (children > 0) {
    auto& list = arena.schema_lists.emplace_back();
    for (int64_t i = 0; i < children; ++i) {
      if (f == "+m" && i == 0 && in.Chance(230)) {
        // The entries struct of a map: key and value.
        ArrowSchema& e = arena.schemas.emplace_back();
        std::memset(&e, 0, sizeof(e));
        e.format = "+s";
        e.name = "entries";
        auto& kv = arena.schema_lists.emplace_back();
        int64_t n = in.Chance(240) ? 2 : in.U8() % 3;
        for (int64_t k = 0; k < n; ++k) kv.push_back(in.Chance(8) ? nullptr : MakeSchema(in, arena, depth + 2));
        e.n_children = n;
        e.children = kv.data();
        e.release = ReleaseSchema;
        list.push_back(&e);
      } else {
        list.push_back(in.Chance(4) ? nullptr : MakeSchema(in, arena, depth + 1));
      }
    }
    s.n_children = children;
    s.children = list.data();
  }
  if (in.Chance(6)) s.dictionary = MakeSchema(in, arena, depth + 1);
  return &s;
}

// Bytes per value of a fixed-width format, 0 when it is not one.
int FixedWidth(std::string_view f) {
  if (f == "c" || f == "C") return 1;
  if (f == "s" || f == "S") return 2;
  if (f == "i" || f == "I" || f == "f" || f == "tdD" || f == "tts" || f == "ttm") return 4;
  if (f == "l" || f == "L" || f == "g" || f == "tdm" || f == "ttu" || f == "ttn") return 8;
  if (f.substr(0, 2) == "ts") return 8;
  if (f.substr(0, 2) == "d:") return 16;
  if (f.substr(0, 2) == "w:") return 16;
  return 0;
}

const void* NewBuffer(Input& in, Arena& arena, size_t size) {
  auto& b = arena.buffers.emplace_back(size == 0 ? 1 : size);
  in.Fill(b.data(), size);
  return b.data();
}

// Offsets for `count` = offset + length slots plus one: mostly non-decreasing (a conforming
// producer's), sometimes raw. The last one is clamped to [0, 512] so the data buffer (or child)
// the format implies can be allocated; the others may still lie anywhere.
template <typename Offset>
const void* NewOffsets(Input& in, Arena& arena, int64_t count, int64_t* last_out) {
  auto& b = arena.buffers.emplace_back(static_cast<size_t>(count + 1) * sizeof(Offset));
  auto* o = reinterpret_cast<Offset*>(b.data());
  bool raw = in.Chance(24);
  Offset at = 0;
  for (int64_t i = 0; i <= count; ++i) {
    if (raw) {
      o[i] = static_cast<Offset>(in.I64());
    } else {
      at = static_cast<Offset>(at + in.U8() % 9);
      o[i] = at;
    }
  }
  int64_t last = static_cast<int64_t>(o[count]);
  if (last < 0 || last > 512) last = in.U8() % 64;
  o[count] = static_cast<Offset>(last);
  *last_out = last;
  return b.data();
}

// An array for schema `s` (or for a format-less node when `s` is null) with length >= min_length.
ArrowArray* MakeArray(Input& in, Arena& arena, const ArrowSchema* s, int64_t min_length, int depth) {
  ArrowArray& a = arena.arrays.emplace_back();
  std::memset(&a, 0, sizeof(a));
  std::string_view f = s && s->format ? s->format : "";
  a.offset = in.U8() % 5;
  a.length = min_length + (in.Chance(200) ? 0 : in.U8() % 40);
  if (in.Chance(3)) a.length = -static_cast<int64_t>(in.U8());  // negative: malformed
  if (in.Chance(3)) a.offset = -1;
  const int64_t slots = std::max<int64_t>(0, a.offset) + std::max<int64_t>(0, a.length);
  uint8_t nulls = in.U8();
  a.null_count = nulls < 64 ? 0 : nulls < 128 ? -1 : nulls % 8;
  auto& bufs = arena.buffer_lists.emplace_back();
  // Validity bitmap: present or absent.
  bufs.push_back(in.Chance(128) ? NewBuffer(in, arena, static_cast<size_t>((slots + 7) / 8)) : nullptr);
  int64_t last = 0;
  if (f == "b") {
    bufs.push_back(NewBuffer(in, arena, static_cast<size_t>((slots + 7) / 8)));
  } else if (f == "u" || f == "z") {
    bufs.push_back(NewOffsets<int32_t>(in, arena, slots, &last));
    bufs.push_back(NewBuffer(in, arena, static_cast<size_t>(last)));
  } else if (f == "U" || f == "Z") {
    bufs.push_back(NewOffsets<int64_t>(in, arena, slots, &last));
    bufs.push_back(NewBuffer(in, arena, static_cast<size_t>(last)));
  } else if (f == "+l" || f == "+m") {
    bufs.push_back(NewOffsets<int32_t>(in, arena, slots, &last));
  } else if (f == "+L") {
    bufs.push_back(NewOffsets<int64_t>(in, arena, slots, &last));
  } else if (int w = FixedWidth(f); w > 0) {
    bufs.push_back(NewBuffer(in, arena, static_cast<size_t>(slots * w)));
  }
  // Now and then one buffer too many or too few.
  if (in.Chance(6)) bufs.push_back(nullptr);
  if (in.Chance(6) && !bufs.empty()) bufs.pop_back();
  a.n_buffers = static_cast<int64_t>(bufs.size());
  a.buffers = bufs.data();
  // Children: as the schema has them, now and then one more or one less.
  int64_t children = s ? s->n_children : 0;
  if (in.Chance(6)) children += in.Chance(128) ? 1 : -1;
  if (depth > 10) children = 0;
  if (children > 0) {
    auto& list = arena.array_lists.emplace_back();
    for (int64_t i = 0; i < children; ++i) {
      const ArrowSchema* cs = s && i < s->n_children && s->children ? s->children[i] : nullptr;
      // A list's child holds at least the last offset's rows; a struct's as many as its parent.
      int64_t need = (f == "+l" || f == "+L" || f == "+m") ? last : slots;
      if (in.Chance(6)) need = 0;
      list.push_back(in.Chance(4) ? nullptr : MakeArray(in, arena, cs, need, depth + 1));
    }
    a.n_children = children;
    a.children = list.data();
  } else if (children < 0) {
    a.n_children = children;
  }
  a.release = ReleaseArray;
  return &a;
}

struct Stream {
  Input* in;
  Arena* arena;
  ArrowSchema* schema;
  int batches_left;
  std::string error;
};

int GetSchema(ArrowArrayStream* st, ArrowSchema* out) {
  auto* s = static_cast<Stream*>(st->private_data);
  if (s->in->Chance(4)) {
    s->error = "no schema today";
    return 5;  // EIO
  }
  *out = *s->schema;
  return 0;
}

int GetNext(ArrowArrayStream* st, ArrowArray* out) {
  auto* s = static_cast<Stream*>(st->private_data);
  if (s->batches_left-- <= 0) {
    std::memset(out, 0, sizeof(*out));  // the end: a released array
    return 0;
  }
  if (s->in->Chance(3)) {
    s->error = "the producer failed";
    return 5;
  }
  *out = *MakeArray(*s->in, *s->arena, s->schema, 0, 0);
  return 0;
}

const char* GetLastError(ArrowArrayStream* st) {
  auto* s = static_cast<Stream*>(st->private_data);
  return s->error.empty() ? nullptr : s->error.c_str();
}

void ReleaseStream(ArrowArrayStream* st) { st->release = nullptr; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  Arena arena;
  ArrowSchema* schema = nullptr;
  if (in.Chance(240)) {
    // The usual case: a struct of columns.
    ArrowSchema& top = arena.schemas.emplace_back();
    std::memset(&top, 0, sizeof(top));
    top.format = "+s";
    auto& cols = arena.schema_lists.emplace_back();
    int64_t n = in.U8() % 5;
    for (int64_t i = 0; i < n; ++i) cols.push_back(in.Chance(3) ? nullptr : MakeSchema(in, arena, 1));
    top.n_children = n;
    top.children = cols.data();
    top.release = ReleaseSchema;
    schema = &top;
  } else {
    schema = MakeSchema(in, arena, 0);
  }
  Stream state{&in, &arena, schema, in.U8() % 4, {}};
  ArrowArrayStream stream{};
  stream.get_schema = GetSchema;
  stream.get_next = GetNext;
  stream.get_last_error = GetLastError;
  stream.release = ReleaseStream;
  stream.private_data = &state;
  // Small batches, so batches are sliced at varying offsets.
  auto table = shoal::sql::ReadArrowStream(&stream, "fuzzed", 1 + in.U8() % 16);
  (void)table;
  return 0;
}
