#include "parquet/thrift_compact.h"

#include <cstring>

namespace shoal::parquet {

void CompactReader::Fail(std::string what) {
  if (error_.empty()) {
    error_ = std::move(what) + " at byte " + std::to_string(pos_);
    pos_ = size_;
  }
}

Status CompactReader::status() const {
  if (error_.empty()) return Status::OK();
  return Status::Corruption("invalid Thrift metadata: " + error_);
}

uint64_t CompactReader::ReadVarint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ >= size_) {
      Fail("truncated varint");
      return 0;
    }
    uint8_t b = data_[pos_++];
    if (shift == 63 && (b & 0x7e)) {
      Fail("varint overflows 64 bits");
      return 0;
    }
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  Fail("varint too long");
  return 0;
}

void CompactReader::StructBegin() {
  if (++depth_ > max_depth_) Fail("nesting deeper than " + std::to_string(max_depth_));
  field_stack_.push_back(last_field_);
  last_field_ = 0;
}

void CompactReader::StructEnd() {
  --depth_;
  if (!field_stack_.empty()) {
    last_field_ = field_stack_.back();
    field_stack_.pop_back();
  }
}

bool CompactReader::ReadFieldBegin(FieldHeader* f) {
  if (!ok()) return false;
  if (pos_ >= size_) {
    Fail("truncated struct");
    return false;
  }
  uint8_t b = data_[pos_++];
  uint8_t type = b & 0x0f;
  if (type == kCStop) {
    f->type = kCStop;
    return false;
  }
  int delta = b >> 4;
  int16_t id;
  if (delta != 0) {
    id = static_cast<int16_t>(last_field_ + delta);
  } else {
    int64_t v = Unzigzag(ReadVarint());
    if (v < INT16_MIN || v > INT16_MAX) {
      Fail("field id out of range");
      return false;
    }
    id = static_cast<int16_t>(v);
  }
  if (type > kCStruct) {
    Fail("unknown field type " + std::to_string(type));
    return false;
  }
  last_field_ = id;
  f->id = id;
  f->type = type;
  return ok();
}

bool CompactReader::ReadBoolElement() { return ReadByte() == 1; }

int8_t CompactReader::ReadByte() {
  if (pos_ >= size_) {
    Fail("truncated byte");
    return 0;
  }
  return static_cast<int8_t>(data_[pos_++]);
}

int16_t CompactReader::ReadI16() {
  int64_t v = Unzigzag(ReadVarint());
  if (v < INT16_MIN || v > INT16_MAX) {
    Fail("i16 out of range");
    return 0;
  }
  return static_cast<int16_t>(v);
}

int32_t CompactReader::ReadI32() {
  int64_t v = Unzigzag(ReadVarint());
  if (v < INT32_MIN || v > INT32_MAX) {
    Fail("i32 out of range");
    return 0;
  }
  return static_cast<int32_t>(v);
}

int64_t CompactReader::ReadI64() { return Unzigzag(ReadVarint()); }

double CompactReader::ReadDouble() {
  if (remaining() < 8) {
    Fail("truncated double");
    return 0;
  }
  double d;
  std::memcpy(&d, data_ + pos_, 8);
  pos_ += 8;
  return d;
}

std::string_view CompactReader::ReadBinary() {
  uint64_t n = ReadVarint();
  if (!ok()) return {};
  if (n > remaining()) {
    Fail("binary length " + std::to_string(n) + " exceeds remaining " + std::to_string(remaining()));
    return {};
  }
  std::string_view s(reinterpret_cast<const char*>(data_ + pos_), n);
  pos_ += n;
  return s;
}

CompactReader::ListHeader CompactReader::ReadListBegin() {
  ListHeader h;
  if (pos_ >= size_) {
    Fail("truncated list header");
    return h;
  }
  uint8_t b = data_[pos_++];
  h.elem_type = b & 0x0f;
  uint64_t n = b >> 4;
  if (n == 15) n = ReadVarint();
  if (!ok()) return h;
  // Every element takes at least one byte, except bools packed in field types (not in lists).
  if (n > remaining()) {
    Fail("list size " + std::to_string(n) + " exceeds remaining bytes");
    return h;
  }
  if (h.elem_type == kCStop || h.elem_type > kCStruct) {
    Fail("bad list element type");
    return h;
  }
  h.size = static_cast<int64_t>(n);
  return h;
}

CompactReader::MapHeader CompactReader::ReadMapBegin() {
  MapHeader h;
  uint64_t n = ReadVarint();
  if (!ok()) return h;
  if (n == 0) return h;
  if (n > remaining()) {
    Fail("map size exceeds remaining bytes");
    return h;
  }
  uint8_t b = static_cast<uint8_t>(ReadByte());
  h.key_type = b >> 4;
  h.value_type = b & 0x0f;
  if (h.key_type == kCStop || h.key_type > kCStruct || h.value_type == kCStop || h.value_type > kCStruct) {
    Fail("bad map element type");
    return h;
  }
  h.size = static_cast<int64_t>(n);
  return h;
}

void CompactReader::Skip(uint8_t type) {
  if (!ok()) return;
  switch (type) {
    case kCBoolTrue:
    case kCBoolFalse:
      return;  // a bool field's value lives in its header
    case kCByte: ReadByte(); return;
    case kCI16:
    case kCI32:
    case kCI64: ReadVarint(); return;
    case kCDouble: ReadDouble(); return;
    case kCBinary: ReadBinary(); return;
    case kCList:
    case kCSet: {
      if (++depth_ > max_depth_) {
        Fail("nesting too deep");
        return;
      }
      ListHeader h = ReadListBegin();
      for (int64_t i = 0; i < h.size && ok(); ++i) {
        if (h.elem_type == kCBoolTrue || h.elem_type == kCBoolFalse) {
          ReadByte();
        } else {
          Skip(h.elem_type);
        }
      }
      --depth_;
      return;
    }
    case kCMap: {
      if (++depth_ > max_depth_) {
        Fail("nesting too deep");
        return;
      }
      MapHeader h = ReadMapBegin();
      for (int64_t i = 0; i < h.size && ok(); ++i) {
        for (uint8_t t : {h.key_type, h.value_type}) {
          if (t == kCBoolTrue || t == kCBoolFalse) {
            ReadByte();
          } else {
            Skip(t);
          }
        }
      }
      --depth_;
      return;
    }
    case kCStruct: {
      StructBegin();
      FieldHeader f;
      while (ReadFieldBegin(&f)) Skip(f.type);
      StructEnd();
      return;
    }
    default: Fail("cannot skip type " + std::to_string(type));
  }
}

// ---- writer

void CompactWriter::WriteVarint(uint64_t v) {
  while (v >= 0x80) {
    out_->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_->push_back(static_cast<char>(v));
}

void CompactWriter::StructBegin() {
  field_stack_.push_back(last_field_);
  last_field_ = 0;
}

void CompactWriter::StructEnd() {
  out_->push_back(0);
  if (!field_stack_.empty()) {
    last_field_ = field_stack_.back();
    field_stack_.pop_back();
  }
}

void CompactWriter::FieldBegin(int16_t id, uint8_t type) {
  int delta = id - last_field_;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | type));
  } else {
    out_->push_back(static_cast<char>(type));
    WriteI16(id);
  }
  last_field_ = id;
}

void CompactWriter::WriteDouble(double v) {
  char b[8];
  std::memcpy(b, &v, 8);
  out_->append(b, 8);
}

void CompactWriter::WriteBinary(std::string_view s) {
  WriteVarint(s.size());
  out_->append(s.data(), s.size());
}

void CompactWriter::ListBegin(uint8_t elem_type, int64_t size) {
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | elem_type));
  } else {
    out_->push_back(static_cast<char>(0xf0 | elem_type));
    WriteVarint(static_cast<uint64_t>(size));
  }
}

void CompactWriter::MapBegin(uint8_t key_type, uint8_t value_type, int64_t size) {
  WriteVarint(static_cast<uint64_t>(size));
  if (size > 0) out_->push_back(static_cast<char>((key_type << 4) | value_type));
}

}  // namespace shoal::parquet
