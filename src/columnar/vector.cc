#include "columnar/vector.h"

#include <cstring>

namespace shoal::columnar {

Vector::Vector(TypePtr type) : type_(std::move(type)) {
  if (type_->HasOffsets()) values_.Push<int64_t>(0);
  if (type_->IsNested()) {
    for (const Field& f : type_->children()) children_.push_back(std::make_shared<Vector>(f.type));
  }
}

VectorPtr Vector::Make(TypePtr type, int64_t capacity) {
  auto v = std::make_shared<Vector>(std::move(type));
  v->Reserve(capacity);
  return v;
}

VectorPtr Vector::MakeNull(TypePtr type, int64_t n) {
  auto v = Make(std::move(type), n);
  v->AppendNulls(n);
  return v;
}

VectorPtr Vector::MakeCoded(VectorPtr dictionary, int64_t n) {
  auto v = std::make_shared<Vector>(dictionary->type());
  v->values_.Clear();
  v->values_.Resize(static_cast<size_t>(n) * sizeof(int32_t));
  v->dictionary_ = std::move(dictionary);
  v->size_ = n;
  return v;
}

int64_t Vector::MemoryBytes() const {
  int64_t n = static_cast<int64_t>(values_.capacity() + bytes_.capacity() + validity_.capacity()) +
              static_cast<int64_t>(sizeof(Vector));
  for (const auto& c : children_) {
    if (c) n += c->MemoryBytes();
  }
  return n;
}

int64_t BatchMemoryBytes(const RecordBatch& b) {
  int64_t n = 0;
  for (size_t i = 0; i < b.columns.size(); ++i) {
    const Vector* v = b.columns[i].get();
    if (!v) continue;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = b.columns[j].get() == v;
    if (!seen) n += v->MemoryBytes();
  }
  return n;
}

int64_t Vector::CountNulls() const {
  if (validity_.empty()) return 0;
  int64_t valid = 0;
  for (int64_t i = 0; i < size_; ++i) valid += validity_[i];
  return size_ - valid;
}

uint8_t* Vector::MutableValidity() {
  if (validity_.empty()) validity_.assign(static_cast<size_t>(size_), 1);
  return validity_.data();
}

void Vector::DropValidityIfAllValid() {
  if (!validity_.empty() && CountNulls() == 0) validity_.clear();
}

void Vector::Reserve(int64_t capacity) {
  if (capacity <= 0) return;
  int w = type_->SlotWidth();
  values_.Reserve(static_cast<size_t>(capacity + (type_->HasOffsets() ? 1 : 0)) * w);
}

void Vector::Resize(int64_t n) {
  int w = type_->SlotWidth();
  if (type_->HasOffsets() || type_->id() == TypeId::kStruct) {
    size_ = n;  // misuse guard: only meaningful for fixed-width types
    return;
  }
  values_.Resize(static_cast<size_t>(n) * w);
  if (!validity_.empty()) validity_.resize(static_cast<size_t>(n), 1);
  size_ = n;
}

void Vector::AppendNull() { AppendNulls(1); }

void Vector::AppendNulls(int64_t n) {
  if (n <= 0) return;
  MutableValidity();
  validity_.resize(static_cast<size_t>(size_ + n), 0);
  switch (type_->id()) {
    case TypeId::kStruct:
      for (auto& c : children_) c->AppendNulls(n);
      break;
    case TypeId::kNull: break;
    default:
      if (type_->HasOffsets()) {
        int64_t last = offsets()[size_];
        for (int64_t i = 0; i < n; ++i) values_.Push(last);
      } else {
        size_t w = type_->SlotWidth();
        size_t old = values_.size();
        values_.ResizeZeroed(old + w * n);
      }
  }
  size_ += n;
}

void Vector::AppendString(std::string_view s) {
  bytes_.Append(s.data(), s.size());
  values_.Push<int64_t>(static_cast<int64_t>(bytes_.size()));
  if (!validity_.empty()) validity_.push_back(1);
  ++size_;
}

void Vector::AppendListEnd() {
  values_.Push<int64_t>(children_[0]->size());
  if (!validity_.empty()) validity_.push_back(1);
  ++size_;
}

void Vector::AppendStructRow() {
  if (!validity_.empty()) validity_.push_back(1);
  ++size_;
}

void Vector::AppendFrom(const Vector& o, int64_t offset, int64_t length) {
  if (length <= 0) return;
  if (o.dictionary_) {
    for (int64_t i = offset; i < offset + length; ++i) {
      if (o.IsNull(i)) {
        AppendNull();
      } else {
        AppendString(o.GetString(i));
      }
    }
    return;
  }
  if (!o.validity_.empty() || !validity_.empty()) {
    MutableValidity();
    if (o.validity_.empty()) {
      validity_.resize(static_cast<size_t>(size_ + length), 1);
    } else {
      validity_.insert(validity_.end(), o.validity_.begin() + offset,
                       o.validity_.begin() + offset + length);
    }
  }
  switch (type_->id()) {
    case TypeId::kNull: break;
    case TypeId::kStruct:
      for (size_t c = 0; c < children_.size(); ++c) children_[c]->AppendFrom(*o.children_[c], offset, length);
      break;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kList:
    case TypeId::kMap: {
      const int64_t* src = o.offsets();
      int64_t begin = src[offset], end = src[offset + length];
      int64_t base = type_->IsStringLike() ? static_cast<int64_t>(bytes_.size()) : children_[0]->size();
      size_t old = values_.size();
      values_.Resize(old + sizeof(int64_t) * length);
      int64_t* dst = reinterpret_cast<int64_t*>(values_.data() + old);
      for (int64_t i = 0; i < length; ++i) dst[i] = src[offset + i + 1] - begin + base;
      if (type_->IsStringLike()) {
        bytes_.Append(o.bytes_.data() + begin, static_cast<size_t>(end - begin));
      } else {
        children_[0]->AppendFrom(*o.children_[0], begin, end - begin);
      }
      break;
    }
    default: {
      size_t w = type_->SlotWidth();
      values_.Append(o.values_.data() + offset * w, length * w);
    }
  }
  size_ += length;
}

void Vector::Clear() {
  size_ = 0;
  validity_.clear();
  values_.Clear();
  bytes_.Clear();
  dictionary_.reset();
  if (type_->HasOffsets()) values_.Push<int64_t>(0);
  for (auto& c : children_) c->Clear();
}

VectorPtr Vector::Slice(int64_t offset, int64_t length) const {
  if (dictionary_) {
    auto out = MakeCoded(dictionary_, length);
    if (length > 0) std::memcpy(out->mutable_codes(), codes() + offset, sizeof(int32_t) * length);
    if (!validity_.empty()) out->validity_.assign(validity_.begin() + offset, validity_.begin() + offset + length);
    return out;
  }
  auto out = Make(type_, length);
  out->AppendFrom(*this, offset, length);
  return out;
}

namespace {

// False only for the negative (NULL-producing) indices of GatherOrNull.
template <typename Index>
inline bool Present(Index i) {
  if constexpr (std::is_signed_v<Index>) return i >= 0;
  else return true;
}

// Gather of a dictionary-coded vector: the codes (0 and NULL for a negative index).
template <typename Index>
VectorPtr GatherCodes(const Vector& v, const Index* sel, int64_t n) {
  auto out = Vector::MakeCoded(v.dictionary(), n);
  const int32_t* src = v.codes();
  int32_t* dst = out->mutable_codes();
  for (int64_t i = 0; i < n; ++i) dst[i] = Present(sel[i]) ? src[sel[i]] : 0;
  bool nulls = v.MayHaveNulls();
  if constexpr (std::is_signed_v<Index>) {
    for (int64_t i = 0; i < n && !nulls; ++i) nulls = !Present(sel[i]);
  }
  if (nulls) {
    uint8_t* val = out->MutableValidity();
    for (int64_t i = 0; i < n; ++i) val[i] = (Present(sel[i]) && v.IsValid(sel[i])) ? 1 : 0;
  }
  return out;
}

template <typename Index>
void GatherInto(const Vector& v, const Index* sel, int64_t n, Vector* out) {
  const TypePtr& type = v.type();
  const bool any_null_index = std::is_signed_v<Index>;
  bool nulls = v.MayHaveNulls();
  if (!nulls && any_null_index) {
    for (int64_t i = 0; i < n && !nulls; ++i) nulls = !Present(sel[i]);
  }
  if (nulls) {
    std::vector<uint8_t>& val = out->validity();
    val.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) val[i] = (Present(sel[i]) && v.IsValid(sel[i])) ? 1 : 0;
  }
  switch (type->id()) {
    case TypeId::kNull: break;
    case TypeId::kStruct:
      for (size_t c = 0; c < v.children().size(); ++c) {
        auto child = std::make_shared<Vector>(v.child(c)->type());
        GatherInto(*v.child(c), sel, n, child.get());
        out->children()[c] = child;
      }
      break;
    case TypeId::kString:
    case TypeId::kBinary: {
      const int64_t* src = v.offsets();
      if constexpr (!std::is_signed_v<Index>) {
        // Consecutive rows have adjacent bytes: one copy per run of selected rows (a filter
        // that keeps most rows selects long runs).
        size_t total = 0;
        for (int64_t i = 0; i < n;) {
          int64_t j = i + 1;
          while (j < n && sel[j] == sel[j - 1] + 1) ++j;
          total += static_cast<size_t>(src[sel[j - 1] + 1] - src[sel[i]]);
          i = j;
        }
        out->values().Resize(sizeof(int64_t) * (n + 1));
        out->bytes().Resize(total);
        int64_t* dst = out->offsets();
        uint8_t* chars = out->bytes().data();
        const uint8_t* bytes = v.bytes().data();
        int64_t pos = 0;
        dst[0] = 0;
        for (int64_t i = 0; i < n;) {
          int64_t j = i + 1;
          while (j < n && sel[j] == sel[j - 1] + 1) ++j;
          const int64_t b0 = src[sel[i]], len = src[sel[j - 1] + 1] - b0;
          if (len) std::memcpy(chars + pos, bytes + b0, static_cast<size_t>(len));
          const int64_t shift = pos - b0;
          for (int64_t k = i; k < j; ++k) dst[k + 1] = src[sel[k] + 1] + shift;
          pos += len;
          i = j;
        }
        break;
      }
      size_t total = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (Present(sel[i])) total += static_cast<size_t>(src[sel[i] + 1] - src[sel[i]]);
      }
      out->values().Resize(sizeof(int64_t) * (n + 1));
      out->bytes().Resize(total);
      int64_t* dst = out->offsets();
      uint8_t* chars = out->bytes().data();
      int64_t pos = 0;
      dst[0] = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (Present(sel[i])) {
          int64_t len = src[sel[i] + 1] - src[sel[i]];
          if (len) std::memcpy(chars + pos, v.bytes().data() + src[sel[i]], static_cast<size_t>(len));
          pos += len;
        }
        dst[i + 1] = pos;
      }
      break;
    }
    case TypeId::kList:
    case TypeId::kMap: {
      const int64_t* src = v.offsets();
      std::vector<int64_t> child_sel;
      out->values().Resize(sizeof(int64_t) * (n + 1));
      int64_t* dst = out->offsets();
      dst[0] = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (Present(sel[i])) {
          for (int64_t j = src[sel[i]]; j < src[sel[i] + 1]; ++j) child_sel.push_back(j);
        }
        dst[i + 1] = static_cast<int64_t>(child_sel.size());
      }
      auto child = std::make_shared<Vector>(v.child(0)->type());
      GatherInto(*v.child(0), child_sel.data(), static_cast<int64_t>(child_sel.size()), child.get());
      out->children()[0] = child;
      break;
    }
    default: {
      int w = type->SlotWidth();
      out->values().Resize(static_cast<size_t>(n) * w);
      uint8_t* dst = out->values().data();
      const uint8_t* src = v.values().data();
      auto copy = [&](auto tag) {
        using T = decltype(tag);
        T* d = reinterpret_cast<T*>(dst);
        const T* s = reinterpret_cast<const T*>(src);
        for (int64_t i = 0; i < n; ++i) d[i] = Present(sel[i]) ? s[sel[i]] : T{};
      };
      switch (w) {
        case 1: copy(uint8_t{}); break;
        case 2: copy(uint16_t{}); break;
        case 4: copy(uint32_t{}); break;
        case 8: copy(uint64_t{}); break;
        default: copy(int128_t{}); break;
      }
    }
  }
  out->SetLength(n);
}

}  // namespace

VectorPtr Gather(const Vector& v, const uint32_t* sel, int64_t n) {
  if (v.IsDictionary()) return GatherCodes(v, sel, n);
  auto out = std::make_shared<Vector>(v.type());
  GatherInto(v, sel, n, out.get());
  return out;
}

VectorPtr GatherOrNull(const Vector& v, const int64_t* sel, int64_t n) {
  if (v.IsDictionary()) return GatherCodes(v, sel, n);
  auto out = std::make_shared<Vector>(v.type());
  GatherInto(v, sel, n, out.get());
  return out;
}

VectorPtr Concat(const std::vector<VectorPtr>& parts) {
  if (parts.empty()) return nullptr;
  int64_t total = 0;
  bool one_dictionary = parts[0]->IsDictionary();
  for (const auto& p : parts) {
    total += p->size();
    one_dictionary = one_dictionary && p->dictionary() == parts[0]->dictionary();
  }
  if (one_dictionary) {
    auto out = Vector::MakeCoded(parts[0]->dictionary(), total);
    int64_t at = 0;
    for (const auto& p : parts) {
      if (p->size() > 0) std::memcpy(out->mutable_codes() + at, p->codes(), sizeof(int32_t) * p->size());
      if (p->MayHaveNulls() || out->MayHaveNulls()) {
        uint8_t* val = out->MutableValidity();
        for (int64_t i = 0; i < p->size(); ++i) val[at + i] = p->IsValid(i) ? 1 : 0;
      }
      at += p->size();
    }
    return out;
  }
  auto out = Vector::Make(parts[0]->type(), total);
  for (const auto& p : parts) out->AppendFrom(*p, 0, p->size());
  return out;
}

VectorPtr Decode(const VectorPtr& v) {
  if (!v->IsDictionary()) return v;
  const int64_t n = v->size();
  const Vector& dict = *v->dictionary();
  if (dict.size() == 0) return Vector::MakeNull(v->type(), n);  // every row is NULL
  auto out = Gather(dict, reinterpret_cast<const uint32_t*>(v->codes()), n);
  if (v->MayHaveNulls()) {
    uint8_t* val = out->MutableValidity();
    const std::vector<uint8_t>& own = v->validity();
    for (int64_t i = 0; i < n; ++i) val[i] &= own[i];
  }
  return out;
}

void DecodeColumns(RecordBatch* b) {
  for (auto& c : b->columns) {
    if (c && c->IsDictionary()) c = Decode(c);
  }
}

bool HasCodedColumns(const RecordBatch& b) {
  for (const auto& c : b.columns) {
    if (c && c->IsDictionary()) return true;
  }
  return false;
}

BatchPtr GatherBatch(const RecordBatch& b, const uint32_t* sel, int64_t n) {
  auto out = std::make_shared<RecordBatch>();
  out->schema = b.schema;
  out->num_rows = n;
  for (const auto& c : b.columns) out->columns.push_back(Gather(*c, sel, n));
  return out;
}

BatchPtr SliceBatch(const RecordBatch& b, int64_t offset, int64_t length) {
  auto out = std::make_shared<RecordBatch>();
  out->schema = b.schema;
  out->num_rows = length;
  for (const auto& c : b.columns) out->columns.push_back(c->Slice(offset, length));
  return out;
}

}  // namespace shoal::columnar
