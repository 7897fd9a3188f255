// Decoders for the structures of metadata.h.
#include <type_traits>

#include "parquet/metadata.h"
#include "parquet/thrift_compact.h"

namespace shoal::parquet {
namespace {

using R = CompactReader;
using F = CompactReader::FieldHeader;

template <class T>
struct Inner {
  using type = T;
};
template <class T>
struct Inner<std::optional<T>> {
  using type = T;
};

bool Want(R& r, const F& f, uint8_t t) {
  if (f.type == t) return true;
  r.Skip(f.type);
  return false;
}

template <class T>
void GetI32(R& r, const F& f, T* dst) {
  if (Want(r, f, kCI32)) *dst = static_cast<typename Inner<T>::type>(r.ReadI32());
}
template <class T>
void GetI64(R& r, const F& f, T* dst) {
  if (Want(r, f, kCI64)) *dst = static_cast<typename Inner<T>::type>(r.ReadI64());
}
template <class T>
void GetBool(R& r, const F& f, T* dst) {
  if (f.type == kCBoolTrue || f.type == kCBoolFalse) {
    *dst = f.type == kCBoolTrue;
  } else {
    r.Skip(f.type);
  }
}
template <class T>
void GetString(R& r, const F& f, T* dst) {
  if (Want(r, f, kCBinary)) *dst = r.ReadString();
}

// Reads a list whose elements `elem(r, &item)` decodes; elements of an unexpected type skip.
template <class T, class Fn>
void GetList(R& r, const F& f, uint8_t elem_type, std::vector<T>* out, Fn elem) {
  if (!Want(r, f, kCList) && f.type != kCSet) return;
  R::ListHeader h = r.ReadListBegin();
  bool match = h.elem_type == elem_type ||
               (elem_type == kCBoolTrue && (h.elem_type == kCBoolFalse || h.elem_type == kCBoolTrue));
  for (int64_t i = 0; i < h.size && r.ok(); ++i) {
    if (!match) {
      if (h.elem_type == kCBoolTrue || h.elem_type == kCBoolFalse) {
        r.ReadByte();
      } else {
        r.Skip(h.elem_type);
      }
      continue;
    }
    T item{};
    elem(r, &item);
    out->push_back(std::move(item));
  }
}

void GetI64List(R& r, const F& f, std::vector<int64_t>* out) {
  GetList(r, f, kCI64, out, [](R& rr, int64_t* v) { *v = rr.ReadI64(); });
}

// Decodes a struct: `field(r, f)` handles (or skips) each field.
template <class Fn>
void ReadStruct(R& r, Fn field) {
  r.StructBegin();
  F f;
  while (r.ReadFieldBegin(&f)) field(r, f);
  r.StructEnd();
}

void ReadStatistics(R& r, Statistics* s) {
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1: GetString(r, f, &s->max); break;
      case 2: GetString(r, f, &s->min); break;
      case 3: GetI64(r, f, &s->null_count); break;
      case 4: GetI64(r, f, &s->distinct_count); break;
      case 5: GetString(r, f, &s->max_value); break;
      case 6: GetString(r, f, &s->min_value); break;
      case 7: GetBool(r, f, &s->is_max_value_exact); break;
      case 8: GetBool(r, f, &s->is_min_value_exact); break;
      case 9: GetI64(r, f, &s->nan_count); break;
      default: r.Skip(f.type);
    }
  });
}

void ReadTimeUnit(R& r, TimeUnit* unit) {
  ReadStruct(r, [&](R& r, const F& f) {
    if (f.type == kCStruct && f.id >= 1 && f.id <= 3) *unit = static_cast<TimeUnit>(f.id);
    r.Skip(f.type);
  });
}

void ReadLogicalType(R& r, LogicalType* lt) {
  ReadStruct(r, [&](R& r, const F& f) {
    if (f.type != kCStruct) {
      r.Skip(f.type);
      return;
    }
    lt->kind = static_cast<LogicalType::Kind>(f.id);
    switch (f.id) {
      case LogicalType::kDecimal:
        ReadStruct(r, [&](R& r, const F& g) {
          if (g.id == 1) {
            GetI32(r, g, &lt->decimal_scale);
          } else if (g.id == 2) {
            GetI32(r, g, &lt->decimal_precision);
          } else {
            r.Skip(g.type);
          }
        });
        break;
      case LogicalType::kTime:
      case LogicalType::kTimestamp:
        ReadStruct(r, [&](R& r, const F& g) {
          if (g.id == 1) {
            GetBool(r, g, &lt->is_adjusted_to_utc);
          } else if (g.id == 2 && g.type == kCStruct) {
            ReadTimeUnit(r, &lt->unit);
          } else {
            r.Skip(g.type);
          }
        });
        break;
      case LogicalType::kInteger:
        ReadStruct(r, [&](R& r, const F& g) {
          if (g.id == 1 && g.type == kCByte) {
            lt->bit_width = r.ReadByte();
          } else if (g.id == 2) {
            GetBool(r, g, &lt->is_signed);
          } else {
            r.Skip(g.type);
          }
        });
        break;
      case LogicalType::kGeometry:
      case LogicalType::kGeography:
        ReadStruct(r, [&](R& r, const F& g) {
          if (g.id == 1) {
            GetString(r, g, &lt->crs);
          } else if (g.id == 2) {
            GetI32(r, g, &lt->algorithm);
          } else {
            r.Skip(g.type);
          }
        });
        break;
      case LogicalType::kVariant:
        ReadStruct(r, [&](R& r, const F& g) {
          if (g.id == 1 && g.type == kCByte) {
            lt->variant_version = r.ReadByte();
          } else {
            r.Skip(g.type);
          }
        });
        break;
      default:
        if (f.id > LogicalType::kGeography || f.id == 9 || f.id <= 0) lt->kind = LogicalType::kNone;
        r.Skip(f.type);
    }
  });
}

void ReadSchemaElement(R& r, SchemaElement* e) {
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1: GetI32(r, f, &e->type); break;
      case 2: GetI32(r, f, &e->type_length); break;
      case 3: GetI32(r, f, &e->repetition); break;
      case 4: GetString(r, f, &e->name); break;
      case 5: GetI32(r, f, &e->num_children); break;
      case 6: GetI32(r, f, &e->converted_type); break;
      case 7: GetI32(r, f, &e->scale); break;
      case 8: GetI32(r, f, &e->precision); break;
      case 9: GetI32(r, f, &e->field_id); break;
      case 10:
        if (Want(r, f, kCStruct)) {
          LogicalType lt;
          ReadLogicalType(r, &lt);
          if (lt.kind != LogicalType::kNone) e->logical_type = lt;
        }
        break;
      default: r.Skip(f.type);
    }
  });
}

void ReadKeyValue(R& r, KeyValue* kv) {
  ReadStruct(r, [&](R& r, const F& f) {
    if (f.id == 1) {
      GetString(r, f, &kv->key);
    } else if (f.id == 2) {
      GetString(r, f, &kv->value);
    } else {
      r.Skip(f.type);
    }
  });
}

void ReadColumnMetaData(R& r, ColumnMetaData* m) {
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1: GetI32(r, f, &m->type); break;
      case 2:
        GetList(r, f, kCI32, &m->encodings, [](R& rr, Encoding* e) { *e = static_cast<Encoding>(rr.ReadI32()); });
        break;
      case 3:
        GetList(r, f, kCBinary, &m->path_in_schema, [](R& rr, std::string* s) { *s = rr.ReadString(); });
        break;
      case 4: GetI32(r, f, &m->codec); break;
      case 5: GetI64(r, f, &m->num_values); break;
      case 6: GetI64(r, f, &m->total_uncompressed_size); break;
      case 7: GetI64(r, f, &m->total_compressed_size); break;
      case 8: GetList(r, f, kCStruct, &m->key_value_metadata, ReadKeyValue); break;
      case 9: GetI64(r, f, &m->data_page_offset); break;
      case 10: GetI64(r, f, &m->index_page_offset); break;
      case 11: GetI64(r, f, &m->dictionary_page_offset); break;
      case 12:
        if (Want(r, f, kCStruct)) ReadStatistics(r, &m->statistics.emplace());
        break;
      case 13:
        GetList(r, f, kCStruct, &m->encoding_stats, [](R& rr, PageEncodingStats* s) {
          ReadStruct(rr, [&](R& rr, const F& g) {
            if (g.id == 1) {
              GetI32(rr, g, &s->page_type);
            } else if (g.id == 2) {
              GetI32(rr, g, &s->encoding);
            } else if (g.id == 3) {
              GetI32(rr, g, &s->count);
            } else {
              rr.Skip(g.type);
            }
          });
        });
        break;
      case 14: GetI64(r, f, &m->bloom_filter_offset); break;
      case 15: GetI32(r, f, &m->bloom_filter_length); break;
      case 16:
        if (Want(r, f, kCStruct)) {
          SizeStatistics& s = m->size_statistics.emplace();
          ReadStruct(r, [&](R& r, const F& g) {
            if (g.id == 1) {
              GetI64(r, g, &s.unencoded_byte_array_data_bytes);
            } else if (g.id == 2) {
              GetI64List(r, g, &s.repetition_level_histogram);
            } else if (g.id == 3) {
              GetI64List(r, g, &s.definition_level_histogram);
            } else {
              r.Skip(g.type);
            }
          });
        }
        break;
      default: r.Skip(f.type);
    }
  });
}

void ReadColumnChunk(R& r, ColumnChunk* c) {
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1: GetString(r, f, &c->file_path); break;
      case 2: GetI64(r, f, &c->file_offset); break;
      case 3:
        if (Want(r, f, kCStruct)) ReadColumnMetaData(r, &c->meta_data.emplace());
        break;
      case 4: GetI64(r, f, &c->offset_index_offset); break;
      case 5: GetI32(r, f, &c->offset_index_length); break;
      case 6: GetI64(r, f, &c->column_index_offset); break;
      case 7: GetI32(r, f, &c->column_index_length); break;
      case 8:
        c->has_crypto_metadata = true;
        r.Skip(f.type);
        break;
      case 9:
        c->has_encrypted_column_metadata = true;
        r.Skip(f.type);
        break;
      default: r.Skip(f.type);
    }
  });
}

void ReadRowGroup(R& r, RowGroup* g) {
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1: GetList(r, f, kCStruct, &g->columns, ReadColumnChunk); break;
      case 2: GetI64(r, f, &g->total_byte_size); break;
      case 3: GetI64(r, f, &g->num_rows); break;
      case 4:
        GetList(r, f, kCStruct, &g->sorting_columns, [](R& rr, SortingColumn* s) {
          ReadStruct(rr, [&](R& rr, const F& h) {
            if (h.id == 1) {
              GetI32(rr, h, &s->column_idx);
            } else if (h.id == 2) {
              GetBool(rr, h, &s->descending);
            } else if (h.id == 3) {
              GetBool(rr, h, &s->nulls_first);
            } else {
              rr.Skip(h.type);
            }
          });
        });
        break;
      case 5: GetI64(r, f, &g->file_offset); break;
      case 6: GetI64(r, f, &g->total_compressed_size); break;
      case 7:
        if (Want(r, f, kCI16)) g->ordinal = r.ReadI16();
        break;
      default: r.Skip(f.type);
    }
  });
}

void ReadDataPageHeader(R& r, DataPageHeader* h, int* seen) {
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1:
        GetI32(r, f, &h->num_values);
        *seen |= 1;
        break;
      case 2:
        GetI32(r, f, &h->encoding);
        *seen |= 2;
        break;
      case 3: GetI32(r, f, &h->definition_level_encoding); break;
      case 4: GetI32(r, f, &h->repetition_level_encoding); break;
      case 5:
        if (Want(r, f, kCStruct)) ReadStatistics(r, &h->statistics.emplace());
        break;
      default: r.Skip(f.type);
    }
  });
}

void ReadDataPageHeaderV2(R& r, DataPageHeaderV2* h, int* seen) {
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1:
        GetI32(r, f, &h->num_values);
        *seen |= 1;
        break;
      case 2: GetI32(r, f, &h->num_nulls); break;
      case 3: GetI32(r, f, &h->num_rows); break;
      case 4:
        GetI32(r, f, &h->encoding);
        *seen |= 2;
        break;
      case 5: GetI32(r, f, &h->definition_levels_byte_length); break;
      case 6: GetI32(r, f, &h->repetition_levels_byte_length); break;
      case 7: GetBool(r, f, &h->is_compressed); break;
      case 8:
        if (Want(r, f, kCStruct)) ReadStatistics(r, &h->statistics.emplace());
        break;
      default: r.Skip(f.type);
    }
  });
}

Status Finish(const R& r, const char* what) {
  if (!r.ok()) return r.status().WithContext(what);
  return Status::OK();
}

}  // namespace

Status DecodeStatistics(std::string_view bytes, Statistics* out) {
  R r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  ReadStatistics(r, out);
  return Finish(r, "Statistics");
}

Status DecodeFileMetaData(std::string_view bytes, FileMetaData* m) {
  R r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  bool have_schema = false;
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1: GetI32(r, f, &m->version); break;
      case 2:
        have_schema = true;
        GetList(r, f, kCStruct, &m->schema, ReadSchemaElement);
        break;
      case 3: GetI64(r, f, &m->num_rows); break;
      case 4: GetList(r, f, kCStruct, &m->row_groups, ReadRowGroup); break;
      case 5: GetList(r, f, kCStruct, &m->key_value_metadata, ReadKeyValue); break;
      case 6: GetString(r, f, &m->created_by); break;
      case 7:
        GetList(r, f, kCStruct, &m->column_orders, [](R& rr, ColumnOrder* o) {
          ReadStruct(rr, [&](R& rr, const F& g) {
            o->kind = g.id;
            rr.Skip(g.type);
          });
        });
        break;
      case 8:
        m->has_encryption_algorithm = true;
        r.Skip(f.type);
        break;
      case 9: GetString(r, f, &m->footer_signing_key_metadata); break;
      default: r.Skip(f.type);
    }
  });
  RETURN_NOT_OK(Finish(r, "FileMetaData"));
  if (!have_schema || m->schema.empty()) return Status::Corruption("FileMetaData: missing schema");
  return Status::OK();
}

Status DecodePageHeader(std::string_view bytes, PageHeader* h, size_t* consumed) {
  R r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  int seen = 0, dseen = 0, d2seen = 0, dictseen = 0;
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1:
        GetI32(r, f, &h->type);
        seen |= 1;
        break;
      case 2:
        GetI32(r, f, &h->uncompressed_page_size);
        seen |= 2;
        break;
      case 3:
        GetI32(r, f, &h->compressed_page_size);
        seen |= 4;
        break;
      case 4: GetI32(r, f, &h->crc); break;
      case 5:
        if (Want(r, f, kCStruct)) ReadDataPageHeader(r, &h->data_page_header.emplace(), &dseen);
        break;
      case 6:
        h->has_index_page_header = true;
        r.Skip(f.type);
        break;
      case 7:
        if (Want(r, f, kCStruct)) {
          DictionaryPageHeader& d = h->dictionary_page_header.emplace();
          ReadStruct(r, [&](R& r, const F& g) {
            if (g.id == 1) {
              GetI32(r, g, &d.num_values);
              dictseen |= 1;
            } else if (g.id == 2) {
              GetI32(r, g, &d.encoding);
            } else if (g.id == 3) {
              GetBool(r, g, &d.is_sorted);
            } else {
              r.Skip(g.type);
            }
          });
        }
        break;
      case 8:
        if (Want(r, f, kCStruct)) ReadDataPageHeaderV2(r, &h->data_page_header_v2.emplace(), &d2seen);
        break;
      default: r.Skip(f.type);
    }
  });
  RETURN_NOT_OK(Finish(r, "PageHeader"));
  if (seen != 7) return Status::Corruption("PageHeader: missing required field");
  if (h->uncompressed_page_size < 0 || h->compressed_page_size < 0) {
    return Status::Corruption("PageHeader: negative page size");
  }
  if (h->data_page_header && (dseen & 1) == 0) return Status::Corruption("DataPageHeader: missing num_values");
  if (h->data_page_header_v2 && (d2seen & 1) == 0) {
    return Status::Corruption("DataPageHeaderV2: missing num_values");
  }
  if (h->dictionary_page_header && (dictseen & 1) == 0) {
    return Status::Corruption("DictionaryPageHeader: missing num_values");
  }
  if (consumed) *consumed = r.position();
  return Status::OK();
}

Status DecodeOffsetIndex(std::string_view bytes, OffsetIndex* o) {
  R r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  ReadStruct(r, [&](R& r, const F& f) {
    if (f.id == 1) {
      GetList(r, f, kCStruct, &o->page_locations, [](R& rr, PageLocation* p) {
        ReadStruct(rr, [&](R& rr, const F& g) {
          if (g.id == 1) {
            GetI64(rr, g, &p->offset);
          } else if (g.id == 2) {
            GetI32(rr, g, &p->compressed_page_size);
          } else if (g.id == 3) {
            GetI64(rr, g, &p->first_row_index);
          } else {
            rr.Skip(g.type);
          }
        });
      });
    } else if (f.id == 2) {
      GetI64List(r, f, &o->unencoded_byte_array_data_bytes);
    } else {
      r.Skip(f.type);
    }
  });
  return Finish(r, "OffsetIndex");
}

Status DecodeColumnIndex(std::string_view bytes, ColumnIndex* c) {
  R r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1: {
        std::vector<uint8_t> tmp;
        GetList(r, f, kCBoolTrue, &tmp, [](R& rr, uint8_t* b) { *b = rr.ReadBoolElement(); });
        c->null_pages.assign(tmp.begin(), tmp.end());
        break;
      }
      case 2:
        GetList(r, f, kCBinary, &c->min_values, [](R& rr, std::string* s) { *s = rr.ReadString(); });
        break;
      case 3:
        GetList(r, f, kCBinary, &c->max_values, [](R& rr, std::string* s) { *s = rr.ReadString(); });
        break;
      case 4: GetI32(r, f, &c->boundary_order); break;
      case 5: GetI64List(r, f, &c->null_counts.emplace()); break;
      case 6: GetI64List(r, f, &c->repetition_level_histograms); break;
      case 7: GetI64List(r, f, &c->definition_level_histograms); break;
      case 8: GetI64List(r, f, &c->nan_counts.emplace()); break;
      default: r.Skip(f.type);
    }
  });
  return Finish(r, "ColumnIndex");
}

Status DecodeBloomFilterHeader(std::string_view bytes, BloomFilterHeader* b, size_t* consumed) {
  R r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  auto member = [](R& r, int16_t want, bool* flag) {
    ReadStruct(r, [&](R& r, const F& g) {
      if (g.id == want && g.type == kCStruct) *flag = true;
      r.Skip(g.type);
    });
  };
  ReadStruct(r, [&](R& r, const F& f) {
    switch (f.id) {
      case 1: GetI32(r, f, &b->num_bytes); break;
      case 2:
        if (Want(r, f, kCStruct)) member(r, 1, &b->algorithm_block);
        break;
      case 3:
        if (Want(r, f, kCStruct)) member(r, 1, &b->hash_xxhash);
        break;
      case 4:
        if (Want(r, f, kCStruct)) member(r, 1, &b->compression_none);
        break;
      default: r.Skip(f.type);
    }
  });
  RETURN_NOT_OK(Finish(r, "BloomFilterHeader"));
  if (consumed) *consumed = r.position();
  return Status::OK();
}

const char* EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kPlain: return "PLAIN";
    case Encoding::kPlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::kRle: return "RLE";
    case Encoding::kBitPacked: return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary: return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN_ENCODING";
}

const char* CodecName(CompressionCodec c) {
  switch (c) {
    case CompressionCodec::kUncompressed: return "UNCOMPRESSED";
    case CompressionCodec::kSnappy: return "SNAPPY";
    case CompressionCodec::kGzip: return "GZIP";
    case CompressionCodec::kLzo: return "LZO";
    case CompressionCodec::kBrotli: return "BROTLI";
    case CompressionCodec::kLz4: return "LZ4";
    case CompressionCodec::kZstd: return "ZSTD";
    case CompressionCodec::kLz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN_CODEC";
}

}  // namespace shoal::parquet
