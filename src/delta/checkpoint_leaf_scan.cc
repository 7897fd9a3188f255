#include "delta/checkpoint_leaf_scan.h"

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <type_traits>

#include "delta/checkpoint_reader.h"
#include "parquet/column_reader.h"
#include "parquet/page_reader.h"

namespace shoal::delta {

using columnar::TypeId;
using columnar::Vector;
using parquet::FieldNode;
using parquet::LeafColumn;
using parquet::LeafLevels;

namespace {

enum class Want : uint8_t { kString, kInt, kBool };

bool IsStringId(TypeId id) { return id == TypeId::kString || id == TypeId::kBinary; }
bool IsIntId(TypeId id) {
  return id == TypeId::kInt8 || id == TypeId::kInt16 || id == TypeId::kInt32 || id == TypeId::kInt64 ||
         id == TypeId::kUInt64;
}

const FieldNode* FindChild(const FieldNode& n, std::string_view name) {
  for (const FieldNode& c : n.children) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// Read position of one leaf inside the current run: the levels of `rows` records and the dense
// values. Positions catch up lazily (rows are visited in ascending order).
struct Cursor {
  const uint16_t* def = nullptr;  // null: every entry defined (max_def == 0)
  const uint16_t* rep = nullptr;  // null: one entry per record
  int64_t entries = 0;
  int16_t max_def = 0;
  const Vector* values = nullptr;
  int64_t row = 0;  // record the position below belongs to
  int64_t e = 0;    // its first entry
  int64_t v = 0;    // dense value index of entry e

  void Reset(const LeafLevels& lv, int16_t md, bool repeated) {
    def = lv.def.empty() ? nullptr : lv.def.data();
    rep = repeated && !lv.rep.empty() ? lv.rep.data() : nullptr;
    entries = lv.num_entries;
    max_def = md;
    values = lv.values.get();
    row = e = v = 0;
  }
  bool Defined(int64_t k) const { return def == nullptr || def[k] == max_def; }
  int Def(int64_t k) const { return def ? def[k] : max_def; }
  // Moves to record r (>= row). False when the levels end early (a corrupt run).
  bool Seek(int64_t r) {
    if (rep == nullptr) {
      if (r >= entries) return false;
      if (def == nullptr) {
        v += r - row;
      } else {
        int64_t n = 0;
        for (int64_t k = e; k < r; ++k) n += def[k] == max_def;
        v += n;
      }
      e = row = r;
      return true;
    }
    while (row < r) {
      do {
        v += Defined(e);
        ++e;
      } while (e < entries && rep[e] != 0);
      ++row;
    }
    return e < entries;
  }
  // End (exclusive) of the entries of the current record.
  int64_t RecordEnd() const {
    int64_t k = e + 1;
    if (rep) {
      while (k < entries && rep[k] != 0) ++k;
    }
    return k;
  }
  bool HasValue(int64_t idx) const { return idx >= 0 && idx < values->size(); }
};

}  // namespace

struct MapSlots {
  bool present = false;  // the column exists
  int16_t def = 0, elem_def = 0;
  int key = -1, value = -1;  // slots
};

struct DvSlots {
  bool present = false;
  int16_t def = 0;
  int probe = -1;
  int storage_type = -1, path = -1, offset = -1, size = -1, cardinality = -1, max_row_index = -1;
};

struct FileSlots {
  int column = -1;  // index in the scan's columns
  bool is_add = true;
  int16_t def = 0;
  int probe = -1;
  int path = -1, size = -1, modification_time = -1, data_change = -1, stats = -1, base_row_id = -1,
      default_row_commit_version = -1, clustering_provider = -1, deletion_timestamp = -1,
      extended_file_metadata = -1;
  int stats_parsed_probe = -1;
  int16_t stats_parsed_def = 0;
  MapSlots partition_values, tags;
  DvSlots dv;
};

struct OtherSlots {
  int column = -1;
  int probe = -1;
  int16_t def = 0;
};

struct CheckpointLeafScan::Plan {
  const parquet::ParquetSchema* schema = nullptr;
  std::vector<int> leaves;       // leaf index per slot
  std::vector<bool> repeated;    // per slot
  std::vector<FileSlots> files;  // add / remove columns
  std::vector<OtherSlots> others;
  // Per column: 0 file (index into files), 1 other (index into others), 2 ignored (cdc).
  std::vector<std::pair<int, int>> role;
  bool ok = true;

  int Slot(int leaf) {
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (leaves[i] == leaf) return static_cast<int>(i);
    }
    const LeafColumn& lc = schema->leaves()[leaf];
    leaves.push_back(leaf);
    repeated.push_back(lc.max_rep > 0);
    return static_cast<int>(leaves.size() - 1);
  }
  // A scalar leaf child; -1 when absent. A present child of another shape or type spoils the plan.
  int Scalar(const FieldNode& parent, std::string_view name, Want want) {
    const FieldNode* n = FindChild(parent, name);
    if (n == nullptr) return -1;
    if (n->kind != FieldNode::Kind::kLeaf) {
      ok = false;
      return -1;
    }
    const LeafColumn& lc = schema->leaves()[n->leaf];
    TypeId id = lc.type->id();
    bool type_ok = want == Want::kString ? IsStringId(id) : want == Want::kInt ? IsIntId(id) : id == TypeId::kBoolean;
    if (!type_ok || lc.max_rep != 0 || lc.max_def != n->def) {
      ok = false;
      return -1;
    }
    return Slot(n->leaf);
  }
  MapSlots Map(const FieldNode& parent, std::string_view name) {
    MapSlots m;
    const FieldNode* n = FindChild(parent, name);
    if (n == nullptr) return m;
    if (n->kind != FieldNode::Kind::kMap || n->children.size() != 2 || n->rep != 1) {
      ok = false;
      return m;
    }
    const FieldNode& k = n->children[0];
    const FieldNode& v = n->children[1];
    if (k.kind != FieldNode::Kind::kLeaf || v.kind != FieldNode::Kind::kLeaf) {
      ok = false;
      return m;
    }
    const LeafColumn& kl = schema->leaves()[k.leaf];
    const LeafColumn& vl = schema->leaves()[v.leaf];
    if (!IsStringId(kl.type->id()) || !IsStringId(vl.type->id()) || kl.max_rep != 1 || vl.max_rep != 1 ||
        kl.max_def != k.def || vl.max_def != v.def || k.def < n->elem_def || v.def < n->elem_def) {
      ok = false;
      return m;
    }
    m.present = true;
    m.def = n->def;
    m.elem_def = n->elem_def;
    m.key = Slot(k.leaf);
    m.value = Slot(v.leaf);
    return m;
  }
  void AddFileColumn(const FieldNode& node, int column, bool is_add) {
    if (node.kind != FieldNode::Kind::kStruct || node.num_leaves == 0) {
      ok = false;
      return;
    }
    FileSlots f;
    f.column = column;
    f.is_add = is_add;
    f.def = node.def;
    f.path = Scalar(node, "path", Want::kString);
    f.partition_values = Map(node, "partitionValues");
    f.size = Scalar(node, "size", Want::kInt);
    f.modification_time = is_add ? Scalar(node, "modificationTime", Want::kInt) : -1;
    f.data_change = Scalar(node, "dataChange", Want::kBool);
    f.stats = Scalar(node, "stats", Want::kString);
    if (const FieldNode* sp = FindChild(node, "stats_parsed")) {
      if (sp->num_leaves == 0) {
        ok = false;
      } else {
        f.stats_parsed_probe = Slot(sp->first_leaf);
        f.stats_parsed_def = sp->def;
      }
    }
    f.tags = Map(node, "tags");
    if (const FieldNode* dv = FindChild(node, "deletionVector")) {
      if (dv->kind != FieldNode::Kind::kStruct || dv->num_leaves == 0) {
        ok = false;
      } else {
        f.dv.present = true;
        f.dv.def = dv->def;
        f.dv.probe = Slot(dv->first_leaf);
        f.dv.storage_type = Scalar(*dv, "storageType", Want::kString);
        f.dv.path = Scalar(*dv, "pathOrInlineDv", Want::kString);
        f.dv.offset = Scalar(*dv, "offset", Want::kInt);
        f.dv.size = Scalar(*dv, "sizeInBytes", Want::kInt);
        f.dv.cardinality = Scalar(*dv, "cardinality", Want::kInt);
        f.dv.max_row_index = Scalar(*dv, "maxRowIndex", Want::kInt);
      }
    }
    f.base_row_id = Scalar(node, "baseRowId", Want::kInt);
    f.default_row_commit_version = Scalar(node, "defaultRowCommitVersion", Want::kInt);
    if (is_add) {
      f.clustering_provider = Scalar(node, "clusteringProvider", Want::kString);
    } else {
      f.deletion_timestamp = Scalar(node, "deletionTimestamp", Want::kInt);
      f.extended_file_metadata = Scalar(node, "extendedFileMetadata", Want::kBool);
    }
    // Presence of the struct: its first leaf (any leaf works when it is not repeated; a
    // repeated one is read by record).
    f.probe = Slot(node.first_leaf);
    role.emplace_back(0, static_cast<int>(files.size()));
    files.push_back(f);
  }
};

namespace {

// The row's values, read at the cursors' current positions. Every function returns false to
// decline (the generic route decides), mirroring FileActionColumnDecoder.
class RowReader {
 public:
  explicit RowReader(std::vector<Cursor>& cursors) : c_(cursors) {}

  bool Seek(int slot, int64_t row) { return slot < 0 || c_[slot].Seek(row); }

  bool Present(int slot) const { return slot >= 0 && c_[slot].Defined(c_[slot].e); }

  bool StructPresent(int probe, int16_t def) const { return c_[probe].Def(c_[probe].e) >= def; }

  bool String(int slot, std::string_view* out) const {
    const Cursor& c = c_[slot];
    if (!c.HasValue(c.v)) return false;
    *out = c.values->GetString(c.v);
    return true;
  }
  bool RequiredString(int slot, std::string* out) const {
    std::string_view s;
    if (!Present(slot) || !String(slot, &s)) return false;
    out->assign(s);
    return true;
  }
  template <typename S>  // std::string (copied) or std::string_view (a view of the run's column)
  bool OptionalString(int slot, std::optional<S>* out) const {
    if (!Present(slot)) return true;
    std::string_view s;
    if (!String(slot, &s)) return false;
    out->emplace(s);
    return true;
  }
  bool Int(int slot, int64_t* out) const {
    const Cursor& c = c_[slot];
    if (!c.HasValue(c.v)) return false;
    const Vector& v = *c.values;
    switch (v.id()) {
      case TypeId::kInt8: *out = v.Get<int8_t>(c.v); return true;
      case TypeId::kInt16: *out = v.Get<int16_t>(c.v); return true;
      case TypeId::kInt32: *out = v.Get<int32_t>(c.v); return true;
      case TypeId::kInt64: *out = v.Get<int64_t>(c.v); return true;
      case TypeId::kUInt64: {
        uint64_t u = v.Get<uint64_t>(c.v);
        if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
        *out = static_cast<int64_t>(u);
        return true;
      }
      default: return false;
    }
  }
  bool RequiredInt(int slot, int64_t* out) const { return Present(slot) && Int(slot, out); }
  bool OptionalInt(int slot, std::optional<int64_t>* out) const {
    if (!Present(slot)) return true;
    int64_t x;
    if (!Int(slot, &x)) return false;
    *out = x;
    return true;
  }
  bool Bool(int slot, bool* out) const {
    const Cursor& c = c_[slot];
    if (!c.HasValue(c.v)) return false;
    *out = c.values->Get<uint8_t>(c.v) != 0;
    return true;
  }
  bool RequiredBool(int slot, bool* out) const { return Present(slot) && Bool(slot, out); }
  bool OptionalBool(int slot, std::optional<bool>* out) const {
    if (!Present(slot)) return true;
    bool b;
    if (!Bool(slot, &b)) return false;
    *out = b;
    return true;
  }

  // Visits the entries of a map row in order: fn(entry, next key index, key, value) returns
  // false to decline. `*present` is false for a null map.
  template <typename Fn>
  bool Entries(const MapSlots& m, bool* present, Fn&& fn) const {
    const Cursor& k = c_[m.key];
    const Cursor& val = c_[m.value];
    if (k.entries != val.entries || k.e != val.e) return false;
    int d = k.Def(k.e);
    *present = d >= m.def;
    if (!*present || d < m.elem_def) return true;
    int64_t end = k.RecordEnd();
    if (val.RecordEnd() != end) return false;
    int64_t kv = k.v, vv = val.v;
    for (int64_t j = k.e; j < end; ++j) {
      if (!k.Defined(j) || !k.HasValue(kv)) return false;
      std::string_view key = k.values->GetString(kv++);
      std::optional<std::string_view> value;
      if (val.Defined(j)) {
        if (!val.HasValue(vv)) return false;
        value = val.values->GetString(vv++);
      }
      if (!fn(j, kv, key, value)) return false;
    }
    return true;
  }

  // A map row: partition values (null values kept) or tags (`drop_nulls`). Duplicate keys and
  // null keys decline.
  template <typename M>
  bool Map(const MapSlots& m, bool drop_nulls, M* out, bool* present) const {
    const Cursor& k = c_[m.key];
    return Entries(m, present, [&](int64_t j, int64_t kv, std::string_view key, std::optional<std::string_view> value) {
      std::string key_text(key);
      if (out->count(key_text)) return false;
      if (!value) {
        if (drop_nulls) {
          // A later entry with the same key would win in the JSON route: decline.
          const int64_t end = k.RecordEnd();
          for (int64_t j2 = j + 1; j2 < end; ++j2) {
            if (!k.Defined(j2) || !k.HasValue(kv)) return false;
            if (k.values->GetString(kv++) == key) return false;
          }
          return true;
        }
        if constexpr (std::is_same_v<typename M::mapped_type, std::optional<std::string>>) {
          out->emplace(std::move(key_text), std::nullopt);
        }
        return true;
      }
      out->emplace(std::move(key_text), std::string(*value));
      return true;
    });
  }

  // Partition values as views of the run's columns; duplicate keys decline.
  bool PartitionViews(const MapSlots& m, std::vector<FileList::PartitionEntry>* out, bool* present) const {
    out->clear();
    return Entries(m, present, [&](int64_t, int64_t, std::string_view key, std::optional<std::string_view> value) {
      for (const FileList::PartitionEntry& e : *out) {
        if (e.key == key) return false;
      }
      out->push_back(FileList::PartitionEntry{key, value.value_or(std::string_view()), !value.has_value()});
      return true;
    });
  }

  bool Dv(const DvSlots& s, std::optional<DeletionVectorDescriptor>* out) const {
    if (!s.present || !StructPresent(s.probe, s.def)) return true;
    DeletionVectorDescriptor d;
    std::string_view st;
    if (!Present(s.storage_type) || !String(s.storage_type, &st)) return false;
    if (st.size() != 1 || (st[0] != 'u' && st[0] != 'i' && st[0] != 'p')) return false;
    d.storage_type = st[0];
    if (!RequiredString(s.path, &d.path_or_inline_dv)) return false;
    std::optional<int64_t> offset;
    if (!OptionalInt(s.offset, &offset)) return false;
    if (offset) {
      if (*offset < 0 || *offset > std::numeric_limits<int32_t>::max()) return false;
      d.offset = static_cast<int32_t>(*offset);
    }
    int64_t size;
    if (!RequiredInt(s.size, &size) || size < 0 || size > std::numeric_limits<int32_t>::max()) return false;
    d.size_in_bytes = static_cast<int32_t>(size);
    if (!RequiredInt(s.cardinality, &d.cardinality) || d.cardinality < 0) return false;
    if (!OptionalInt(s.max_row_index, &d.max_row_index)) return false;
    *out = std::move(d);
    return true;
  }

  template <typename S>
  bool Stats(const FileSlots& f, std::optional<S>* out) const {
    // Only stats_parsed: the JSON route re-serializes it.
    if (!Present(f.stats) && f.stats_parsed_probe >= 0 && StructPresent(f.stats_parsed_probe, f.stats_parsed_def)) {
      return false;
    }
    return OptionalString(f.stats, out);
  }

  // An add row as views of the run's columns (`pv` holds its partition values) plus the rare
  // fields.
  bool DecodeAddRow(const FileSlots& f, FileList::Row* r, std::vector<FileList::PartitionEntry>* pv,
                    FileList::Extras* x) const {
    if (!Present(f.path) || !String(f.path, &r->path)) return false;
    bool present = false;
    if (!f.partition_values.present || !PartitionViews(f.partition_values, pv, &present) || !present) {
      return false;
    }
    r->partition_values = *pv;
    if (!RequiredInt(f.size, &r->size)) return false;
    if (!RequiredInt(f.modification_time, &r->modification_time)) return false;
    if (!RequiredBool(f.data_change, &r->data_change)) return false;
    if (!Stats(f, &r->stats)) return false;
    if (f.tags.present) {
      StringMap tags;
      if (!Map(f.tags, true, &tags, &present)) return false;
      if (present) x->tags = std::move(tags);
    }
    if (!Dv(f.dv, &x->deletion_vector)) return false;
    if (!OptionalInt(f.base_row_id, &x->base_row_id)) return false;
    if (!OptionalInt(f.default_row_commit_version, &x->default_row_commit_version)) return false;
    return OptionalString(f.clustering_provider, &x->clustering_provider);
  }

  bool DecodeAdd(const FileSlots& f, AddFile* a) const {
    FileList::Row r;
    std::vector<FileList::PartitionEntry> pv;
    FileList::Extras x;
    if (!DecodeAddRow(f, &r, &pv, &x)) return false;
    *a = FileList::MakeAddFile(r, std::move(x));
    return true;
  }

  bool DecodeRemove(const FileSlots& f, RemoveFile* r) const {
    if (!RequiredString(f.path, &r->path)) return false;
    if (!OptionalInt(f.deletion_timestamp, &r->deletion_timestamp)) return false;
    if (!RequiredBool(f.data_change, &r->data_change)) return false;
    if (!OptionalBool(f.extended_file_metadata, &r->extended_file_metadata)) return false;
    bool present = false;
    if (f.partition_values.present) {
      PartitionValues pv;
      if (!Map(f.partition_values, false, &pv, &present)) return false;
      if (present) r->partition_values = std::move(pv);
    }
    if (!OptionalInt(f.size, &r->size)) return false;
    if (f.tags.present) {
      StringMap tags;
      if (!Map(f.tags, true, &tags, &present)) return false;
      if (present) r->tags = std::move(tags);
    }
    if (!Dv(f.dv, &r->deletion_vector)) return false;
    if (!OptionalInt(f.base_row_id, &r->base_row_id)) return false;
    if (!OptionalInt(f.default_row_commit_version, &r->default_row_commit_version)) return false;
    return Stats(f, &r->stats);
  }

 private:
  std::vector<Cursor>& c_;
};

// An other-action column of a row, to be read by the caller before actions[pos] is emitted.
struct OtherMark {
  size_t pos;
  int64_t row;
  int column;
};

// One run of rows moving through the pipeline: decoded leaves (calling thread), then actions
// (builder thread), then emitted (calling thread).
struct Stage {
  enum class State : uint8_t { kFree, kDecoded, kBuilt };
  State state = State::kFree;
  std::vector<LeafLevels> levels;  // per slot
  int64_t first_row = 0;
  int64_t rows = 0;
  bool decoded_ok = true;
  std::vector<Action> actions;
  std::vector<OtherMark> others;
  bool columnar = false;  // add rows go to `adds` instead of `actions`
  FileList adds;          // views into this run's decoded string columns, which it keeps
  int64_t stop = -1;      // row at which building stopped; -1: the whole run was built
};

}  // namespace

CheckpointLeafScan::CheckpointLeafScan(const parquet::ParquetReader& reader, std::vector<int> columns,
                                       std::vector<std::string> names)
    : reader_(reader), plan_(std::make_unique<Plan>()) {
  Plan& p = *plan_;
  p.schema = &reader.parquet_schema();
  for (size_t c = 0; c < columns.size() && p.ok; ++c) {
    const FieldNode& node = p.schema->fields()[columns[c]];
    if (names[c] == "add" || names[c] == "remove") {
      p.AddFileColumn(node, static_cast<int>(c), names[c] == "add");
    } else if (names[c] == "cdc") {
      p.role.emplace_back(2, -1);  // change files do not belong in a snapshot
    } else {
      if (node.num_leaves == 0) {
        p.ok = false;
        break;
      }
      OtherSlots o;
      o.column = static_cast<int>(c);
      o.probe = p.Slot(node.first_leaf);
      o.def = node.def;
      p.role.emplace_back(1, static_cast<int>(p.others.size()));
      p.others.push_back(o);
    }
  }
  usable_ = p.ok && !p.files.empty();
}

CheckpointLeafScan::~CheckpointLeafScan() = default;

namespace {

// Decodes runs of the plan's leaves of one row group, in order (calling thread).
class RunDecoder {
 public:
  RunDecoder(const parquet::ParquetReader& reader, const std::vector<int>& leaves, int rg)
      : reader_(reader), leaves_(leaves), rg_(rg), num_rows_(reader.row_group_num_rows(rg)) {
    opened_ = Open();
  }

  // Fills `st` with rows [first, first + n); false when the generic route must judge them.
  bool Fill(Stage* st, int64_t first, int64_t n) {
    st->first_row = first;
    st->rows = n;
    st->levels.resize(leaves_.size());
    if (!opened_.ok()) return false;
    bytes_hint_.resize(readers_.size(), 0);
    for (size_t s = 0; s < readers_.size(); ++s) {
      LeafLevels& lv = st->levels[s];
      lv.Clear();
      if (!lv.values && bytes_hint_[s] > 0) {
        // The previous run's strings went to its file list: size the new column like them, so
        // it is not regrown (copied and faulted in again) page by page.
        lv.values = Vector::Make(reader_.parquet_schema().leaves()[leaves_[s]].type);
        lv.values->bytes().Reserve(bytes_hint_[s] + bytes_hint_[s] / 8);
        lv.values->values().Reserve(static_cast<size_t>(n + 1) * sizeof(int64_t));
      }
      auto got = readers_[s]->ReadRecords(n, &lv);
      if (!got.ok() || *got != n) return false;
      if (lv.values) bytes_hint_[s] = std::max(bytes_hint_[s], lv.values->bytes().size());
    }
    return true;
  }

 private:
  Status Open() {
    const parquet::ParquetSchema& ps = reader_.parquet_schema();
    for (int l : leaves_) {
      const parquet::ColumnChunk& chunk = reader_.column_chunk(rg_, l);
      const LeafColumn& leaf = ps.leaves()[l];
      if (chunk.has_crypto_metadata || chunk.has_encrypted_column_metadata || !chunk.meta_data ||
          (chunk.file_path && !chunk.file_path->empty()) || chunk.meta_data->type != leaf.physical) {
        return Status::Corruption("column chunk the generic reader must judge");
      }
      ASSIGN_OR_RETURN(auto pages, parquet::PageReader::Make(reader_.file(), *chunk.meta_data, leaf.dotted_path,
                                                             nullptr, reader_.options(), nullptr));
      readers_.push_back(
          std::make_unique<parquet::ColumnChunkReader>(&leaf, std::move(pages), num_rows_, reader_.path(), nullptr));
    }
    return Status::OK();
  }

  const parquet::ParquetReader& reader_;
  const std::vector<int>& leaves_;
  int rg_;
  int64_t num_rows_;
  std::vector<size_t> bytes_hint_;  // per slot: the largest string bytes of a run so far
  Status opened_;
  std::vector<std::unique_ptr<parquet::ColumnChunkReader>> readers_;
};

// Turns decoded runs into actions (builder thread). Rows are committed whole: a row that
// declines leaves nothing behind, and building stops there.
void BuildRun(const CheckpointLeafScan::Plan& p, std::vector<Cursor>& cursors, Stage* st) {
  st->actions.clear();
  st->others.clear();
  st->adds = FileList();
  st->stop = -1;
  if (!st->decoded_ok) {
    st->stop = st->first_row;
    return;
  }
  const auto& leaves = p.schema->leaves();
  for (size_t s = 0; s < cursors.size(); ++s) {
    const LeafLevels& lv = st->levels[s];
    const LeafColumn& lc = leaves[p.leaves[s]];
    cursors[s].Reset(lv, lc.max_def, p.repeated[s]);
    // Flat leaves have one level entry per row; anything else is for the generic route.
    bool consistent = (p.repeated[s] || lv.num_entries == st->rows) &&
                      (lc.max_def == 0 || static_cast<int64_t>(lv.def.size()) == lv.num_entries) &&
                      (!p.repeated[s] || static_cast<int64_t>(lv.rep.size()) == lv.num_entries) && lv.values;
    if (!consistent) {
      st->stop = st->first_row;
      return;
    }
  }
  RowReader rr(cursors);
  const size_t ncols = p.role.size();
  std::optional<Action> row_actions[16];
  bool other_here[16] = {};
  // Column-wise add rows waiting for their row to be complete.
  bool row_file[16] = {};
  FileList::Row file_rows[16];
  FileList::Extras file_extras[16];
  std::vector<FileList::PartitionEntry> file_pv[16];
  if (ncols > 16) {
    st->stop = st->first_row;
    return;
  }
  for (int64_t i = 0; i < st->rows; ++i) {
    const int64_t row = st->first_row + i;
    bool any = false, declined = false;
    for (size_t c = 0; c < ncols && !declined; ++c) {
      auto [kind, idx] = p.role[c];
      if (kind == 2) continue;
      if (kind == 1) {
        const OtherSlots& o = p.others[idx];
        if (!rr.Seek(o.probe, i)) {
          declined = true;
        } else if (rr.StructPresent(o.probe, o.def)) {
          other_here[c] = true;
          any = true;
        }
        continue;
      }
      const FileSlots& f = p.files[idx];
      if (!rr.Seek(f.probe, i)) {
        declined = true;
        continue;
      }
      if (!rr.StructPresent(f.probe, f.def)) continue;
      for (int s : {f.path, f.size, f.modification_time, f.data_change, f.stats, f.base_row_id,
                    f.default_row_commit_version, f.clustering_provider, f.deletion_timestamp,
                    f.extended_file_metadata, f.stats_parsed_probe, f.partition_values.key, f.partition_values.value,
                    f.tags.key, f.tags.value, f.dv.probe, f.dv.storage_type, f.dv.path, f.dv.offset, f.dv.size,
                    f.dv.cardinality, f.dv.max_row_index}) {
        if (!rr.Seek(s, i)) declined = true;
      }
      if (declined) continue;
      if (f.is_add && st->columnar) {
        file_rows[c] = FileList::Row();
        file_extras[c] = FileList::Extras();
        declined = !rr.DecodeAddRow(f, &file_rows[c], &file_pv[c], &file_extras[c]);
        row_file[c] = !declined;
      } else if (f.is_add) {
        AddFile a;
        declined = !rr.DecodeAdd(f, &a);
        if (!declined) row_actions[c].emplace(std::in_place_type<AddFile>, std::move(a));
      } else {
        RemoveFile r;
        declined = !rr.DecodeRemove(f, &r);
        if (!declined) row_actions[c].emplace(std::in_place_type<RemoveFile>, std::move(r));
      }
      any = true;
    }
    if (declined) {
      st->stop = row;
      break;
    }
    if (!any) continue;
    for (size_t c = 0; c < ncols; ++c) {
      if (row_file[c]) {
        row_file[c] = false;
        st->adds.AppendRow(file_rows[c], std::move(file_extras[c]));
      } else if (other_here[c]) {
        other_here[c] = false;
        st->others.push_back(OtherMark{st->actions.size(), row, static_cast<int>(c)});
      } else if (row_actions[c]) {
        st->actions.push_back(std::move(*row_actions[c]));
        row_actions[c].reset();
      }
    }
  }
  if (st->adds.empty()) return;
  // The views point into the decoded string columns: the list keeps them, and the decoder
  // makes new ones for the next run.
  for (const FileSlots& f : p.files) {
    if (!f.is_add) continue;
    for (int slot : {f.path, f.stats, f.partition_values.key, f.partition_values.value}) {
      if (slot < 0 || !st->levels[slot].values) continue;
      st->adds.KeepAlive(std::move(st->levels[slot].values));
      st->levels[slot].values = nullptr;
    }
  }
}

// Runs BuildRun on its own thread for the stages the calling thread hands it, in order.
class Builder {
 public:
  Builder(const CheckpointLeafScan::Plan& p, Stage* stages) : plan_(p), stages_(stages), cursors_(p.leaves.size()) {
    thread_ = std::thread([this] { Work(); });
  }
  ~Builder() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  // Stage k has been decoded: build it.
  void Submit(Stage* st) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      st->state = Stage::State::kDecoded;
    }
    cv_.notify_all();
  }
  void WaitBuilt(Stage* st) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return st->state == Stage::State::kBuilt; });
  }
  void Release(Stage* st) {
    std::lock_guard<std::mutex> lock(mu_);
    st->state = Stage::State::kFree;
  }

 private:
  void Work() {
    for (int64_t k = 0;; ++k) {
      Stage* st = &stages_[k % 2];
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || st->state == Stage::State::kDecoded; });
        if (stop_) return;
      }
      BuildRun(plan_, cursors_, st);
      {
        std::lock_guard<std::mutex> lock(mu_);
        st->state = Stage::State::kBuilt;
      }
      cv_.notify_all();
    }
  }

  const CheckpointLeafScan::Plan& plan_;
  Stage* stages_;
  std::vector<Cursor> cursors_;  // builder thread only
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace

Result<int64_t> CheckpointLeafScan::ReadRowGroup(int rg, const ActionSink& sink, const OtherRowFn& other,
                                                 const FileListSink* files) {
  const int64_t num_rows = reader_.row_group_num_rows(rg);
  if (!usable_) return int64_t{0};
  if (num_rows == 0) return num_rows;
  const Plan& p = *plan_;
  RunDecoder decoder(reader_, p.leaves, rg);
  Stage stages[2];
  stages[0].columnar = stages[1].columnar = files != nullptr;
  Builder builder(p, stages);
  const int64_t runs = (num_rows + run_rows_ - 1) / run_rows_;
  // Emits built stage k; returns the row it stopped at, or -1 to go on.
  auto emit = [&](int64_t k) -> Result<int64_t> {
    Stage* st = &stages[k % 2];
    builder.WaitBuilt(st);
    size_t m = 0;
    for (size_t a = 0; a <= st->actions.size(); ++a) {
      for (; m < st->others.size() && st->others[m].pos == a; ++m) {
        RETURN_NOT_OK(other(rg, st->others[m].row, st->others[m].column));
      }
      if (a < st->actions.size()) RETURN_NOT_OK(sink(std::move(st->actions[a])));
    }
    if (!st->adds.empty()) {
      Status sent = (*files)(std::move(st->adds));
      st->adds = FileList();
      RETURN_NOT_OK(sent);
    }
    int64_t stop = st->stop;
    builder.Release(st);  // the builder clears the moved-from actions when it reuses the stage
    return stop;
  };
  // Decoding run k (here) overlaps with building run k - 1 (builder); emitting run k - 1
  // (here) overlaps with building run k.
  int64_t last = 0;
  for (int64_t k = 0; k < runs; ++k) {
    Stage* st = &stages[k % 2];
    int64_t first = k * run_rows_;
    st->decoded_ok = decoder.Fill(st, first, std::min(run_rows_, num_rows - first));
    builder.Submit(st);
    last = k;
    if (k > 0) {
      ASSIGN_OR_RETURN(int64_t stop, emit(k - 1));
      if (stop >= 0) return stop;
    }
    if (!st->decoded_ok) break;  // it is built as a stop at its first row
  }
  ASSIGN_OR_RETURN(int64_t stop, emit(last));
  return stop >= 0 ? stop : num_rows;
}

}  // namespace shoal::delta
