#include "table/coded_gather.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace shoal::table {
namespace {

namespace c = shoal::columnar;

// Segments of one column built from random values (some NULL), and the SegmentColumn over them.
struct Segments {
  std::vector<c::VectorPtr> vectors;
  SegmentColumn column;
};

Segments MakeSegments(const c::TypePtr& type, int count, int rows, std::mt19937* rng) {
  Segments s;
  for (int k = 0; k < count; ++k) {
    auto v = c::Vector::Make(type, rows);
    for (int r = 0; r < rows; ++r) {
      const uint32_t x = (*rng)();
      if (x % 11 == 0) {
        v->AppendNull();
      } else if (type->IsStringLike()) {
        v->AppendString(std::string(x % 90, static_cast<char>('a' + x % 26)) + std::to_string(x));
      } else {
        switch (type->SlotWidth()) {
          case 1: v->Append<int8_t>(static_cast<int8_t>(x)); break;
          case 2: v->Append<int16_t>(static_cast<int16_t>(x)); break;
          case 4: v->Append<int32_t>(static_cast<int32_t>(x)); break;
          case 8: v->Append<int64_t>(static_cast<int64_t>(x) * 1000003); break;
          default: v->Append<c::int128_t>(static_cast<c::int128_t>(x) << 70 | x); break;
        }
      }
    }
    s.column.values.push_back(type->IsStringLike() ? nullptr : v->values().data());
    s.column.offsets.push_back(type->IsStringLike() ? v->offsets() : nullptr);
    s.column.bytes.push_back(type->IsStringLike() ? v->bytes().data() : nullptr);
    s.column.validity.push_back(v->MayHaveNulls() ? v->validity().data() : nullptr);
    s.column.any_nulls = s.column.any_nulls || v->MayHaveNulls();
    s.vectors.push_back(v);
  }
  return s;
}

// A row's value as bytes: its slot, or its characters.
std::string ValueBytes(const c::Vector& v, int64_t i) {
  if (v.type()->IsStringLike()) return std::string(v.GetString(i));
  const auto w = static_cast<size_t>(v.type()->SlotWidth());
  return std::string(reinterpret_cast<const char*>(v.values().data()) + static_cast<size_t>(i) * w, w);
}

// Spans (long runs, single rows, whole segments) give the same column as gathering their rows
// one code at a time, for every slot width, strings and NULLs.
TEST(CodedGather, SpansGatherLikeTheirRowsOneByOne) {
  std::mt19937 rng(7);
  const std::vector<c::TypePtr> types = {c::Boolean(), c::Int16(), c::Int32(), c::Int64(), c::Decimal(30, 2),
                                         c::String()};
  for (const auto& type : types) {
    const int kRows = 3000;
    Segments segs = MakeSegments(type, 5, kRows, &rng);
    std::vector<CodeSpan> spans;
    std::vector<uint32_t> codes;
    for (int k = 0; k < 400; ++k) {
      CodeSpan sp;
      sp.segment = rng() % 5;
      const uint32_t kind = rng() % 4;
      sp.rows = kind == 0 ? 1 : kind == 1 ? 1 + rng() % 7 : kind == 2 ? 8 + rng() % 300 : kRows;
      sp.row = sp.rows == static_cast<uint32_t>(kRows) ? 0 : rng() % (kRows - sp.rows + 1);
      spans.push_back(sp);
      for (uint32_t r = 0; r < sp.rows; ++r) codes.push_back(sp.segment << 16 | (sp.row + r));
    }
    const auto n = static_cast<int64_t>(codes.size());
    c::Vector by_spans(type);
    c::Vector by_codes(type);
    GatherSpans(segs.column, *type, spans.data(), spans.size(), n, &by_spans);
    GatherCoded(segs.column, *type, codes.data(), n, &by_codes);
    ASSERT_EQ(by_spans.size(), n) << type->ToString();
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t code = codes[static_cast<size_t>(i)];
      const c::Vector& src = *segs.vectors[code >> 16];
      const int64_t row = code & 0xFFFF;
      ASSERT_EQ(by_spans.IsNull(i), src.IsNull(row)) << type->ToString() << " row " << i;
      ASSERT_EQ(by_codes.IsNull(i), src.IsNull(row)) << type->ToString() << " row " << i;
      if (src.IsNull(row)) continue;
      ASSERT_EQ(ValueBytes(by_spans, i), ValueBytes(src, row)) << type->ToString() << " row " << i;
      ASSERT_EQ(ValueBytes(by_codes, i), ValueBytes(src, row)) << type->ToString() << " row " << i;
    }
  }
}

}  // namespace
}  // namespace shoal::table
