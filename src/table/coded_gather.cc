#include "table/coded_gather.h"

#include <cstring>

namespace shoal::table {

namespace {

// Rows ahead whose values the gather prefetches.
constexpr int64_t kPrefetch = 16;

// Copies exactly `len` bytes with a few fixed-size (inlined) moves, never reading past the
// source string (it may end its buffer).
inline void CopyExact(uint8_t* dst, const uint8_t* src, int64_t len) {
  if (len >= 16) {
    int64_t k = 0;
    for (; k + 16 < len; k += 16) std::memcpy(dst + k, src + k, 16);
    std::memcpy(dst + len - 16, src + len - 16, 16);
  } else if (len >= 8) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + len - 8, src + len - 8, 8);
  } else if (len >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + len - 4, src + len - 4, 4);
  } else if (len > 0) {
    dst[0] = src[0];
    dst[len / 2] = src[len / 2];
    dst[len - 1] = src[len - 1];
  }
}

}  // namespace

void GatherCoded(const SegmentColumn& sc, const columnar::DataType& type, const uint32_t* codes, int64_t n,
                 columnar::Vector* out) {
  if (sc.any_nulls) {
    std::vector<uint8_t>& val = out->validity();
    val.resize(static_cast<size_t>(n));
    const uint8_t* const* vs = sc.validity.data();
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* v = vs[codes[i] >> 16];
      val[i] = v ? v[codes[i] & 0xFFFF] : 1;
    }
  }
  if (type.IsStringLike()) {
    // Pass 1: each row's characters and length (the offsets' misses overlap); the lengths
    // become the output offsets. Pass 2: the characters, prefetched by address.
    const int64_t* const* so = sc.offsets.data();
    out->values().Resize(sizeof(int64_t) * static_cast<size_t>(n + 1));
    int64_t* dof = out->offsets();
    std::vector<const uint8_t*> from(static_cast<size_t>(n));
    dof[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (i + kPrefetch < n) {
        const uint32_t pc = codes[i + kPrefetch];
        __builtin_prefetch(so[pc >> 16] + (pc & 0xFFFF));
      }
      const uint32_t c = codes[i];
      const int64_t* o = so[c >> 16] + (c & 0xFFFF);
      from[i] = sc.bytes[c >> 16] + o[0];
      dof[i + 1] = dof[i] + (o[1] - o[0]);
    }
    out->bytes().Resize(static_cast<size_t>(dof[n]));
    uint8_t* db = out->bytes().data();
    for (int64_t i = 0; i < n; ++i) {
      if (i + kPrefetch < n) __builtin_prefetch(from[i + kPrefetch]);
      CopyExact(db + dof[i], from[i], dof[i + 1] - dof[i]);
    }
  } else {
    const int w = type.SlotWidth();
    out->values().Resize(static_cast<size_t>(n) * static_cast<size_t>(w));
    auto copy = [&](auto tag) {
      using T = decltype(tag);
      const uint8_t* const* base = sc.values.data();
      T* dst = out->data<T>();
      for (int64_t i = 0; i < n; ++i) {
        if (i + kPrefetch < n) {
          const uint32_t pc = codes[i + kPrefetch];
          __builtin_prefetch(base[pc >> 16] + sizeof(T) * (pc & 0xFFFF));
        }
        std::memcpy(dst + i, base[codes[i] >> 16] + sizeof(T) * (codes[i] & 0xFFFF), sizeof(T));
      }
    };
    ForSlotWidth(w, copy);
  }
  out->SetLength(n);
}

void GatherSpans(const SegmentColumn& sc, const columnar::DataType& type, const CodeSpan* spans, size_t count,
                 int64_t n, columnar::Vector* out) {
  if (sc.any_nulls) {
    std::vector<uint8_t>& val = out->validity();
    val.resize(static_cast<size_t>(n));
    int64_t at = 0;
    for (size_t k = 0; k < count; ++k) {
      const CodeSpan& sp = spans[k];
      const uint8_t* v = sc.validity[sp.segment];
      if (v) {
        std::memcpy(val.data() + at, v + sp.row, sp.rows);
      } else {
        std::memset(val.data() + at, 1, sp.rows);
      }
      at += sp.rows;
    }
  }
  if (type.IsStringLike()) {
    // Offsets first (they give the characters' total), then each span's characters at once.
    out->values().Resize(sizeof(int64_t) * static_cast<size_t>(n + 1));
    int64_t* dof = out->offsets();
    dof[0] = 0;
    int64_t at = 0;
    for (size_t k = 0; k < count; ++k) {
      const CodeSpan& sp = spans[k];
      const int64_t* o = sc.offsets[sp.segment] + sp.row;
      const int64_t shift = dof[at] - o[0];
      for (uint32_t r = 1; r <= sp.rows; ++r) dof[at + r] = o[r] + shift;
      at += sp.rows;
    }
    out->bytes().Resize(static_cast<size_t>(dof[n]));
    uint8_t* db = out->bytes().data();
    at = 0;
    for (size_t k = 0; k < count; ++k) {
      const CodeSpan& sp = spans[k];
      const int64_t* o = sc.offsets[sp.segment] + sp.row;
      const int64_t len = o[sp.rows] - o[0];
      if (len > 64) {
        std::memcpy(db + dof[at], sc.bytes[sp.segment] + o[0], static_cast<size_t>(len));
      } else {
        CopyExact(db + dof[at], sc.bytes[sp.segment] + o[0], len);
      }
      at += sp.rows;
    }
  } else {
    const int w = type.SlotWidth();
    out->values().Resize(static_cast<size_t>(n) * static_cast<size_t>(w));
    auto copy = [&](auto tag) {
      using T = decltype(tag);
      T* dst = out->data<T>();
      for (size_t k = 0; k < count; ++k) {
        const CodeSpan& sp = spans[k];
        const uint8_t* src = sc.values[sp.segment] + sizeof(T) * sp.row;
        if (sp.rows < 8) {
          for (uint32_t r = 0; r < sp.rows; ++r) std::memcpy(dst + r, src + sizeof(T) * r, sizeof(T));
        } else {
          std::memcpy(dst, src, sizeof(T) * sp.rows);
        }
        dst += sp.rows;
      }
    };
    ForSlotWidth(w, copy);
  }
  out->SetLength(n);
}

}  // namespace shoal::table
