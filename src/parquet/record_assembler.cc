#include "parquet/record_assembler.h"

namespace shoal::parquet {

using columnar::Vector;
using columnar::VectorPtr;

namespace {

// Mirrors a FieldNode while rows are assembled.
struct Builder {
  const FieldNode* node = nullptr;
  std::vector<uint8_t> valid;
  bool any_null = false;
  std::vector<int64_t> offsets{0};  // LIST / MAP
  std::vector<int64_t> sel;         // leaf: dense value index, or -1 for NULL
  std::vector<Builder> children;

  explicit Builder(const FieldNode* n) : node(n) {
    for (const FieldNode& c : n->children) children.emplace_back(&c);
  }
};

class Assembler {
 public:
  Assembler(const std::vector<LeafLevels>& leaves, const std::vector<LeafColumn>& meta, int first_leaf)
      : leaves_(leaves), meta_(meta), first_(first_leaf), cursor_(leaves.size(), 0), vcursor_(leaves.size(), 0) {}

  Status ReadSlot(Builder& b) {
    const FieldNode& n = *b.node;
    int l = n.first_leaf - first_;
    if (n.num_leaves == 0) return Status::Corruption("field without leaf columns");
    const LeafLevels& lv = leaves_[l];
    int64_t c = cursor_[l];
    if (c >= lv.num_entries) return Status::Corruption("levels of column '" + meta_[n.first_leaf].dotted_path + "' end early");
    int d = lv.def.empty() ? 0 : lv.def[c];
    switch (n.kind) {
      case FieldNode::Kind::kLeaf: {
        if (d >= n.def) {
          int64_t v = vcursor_[l]++;
          if (v >= lv.values->size()) return Status::Corruption("column '" + meta_[n.leaf].dotted_path + "' has fewer values than levels");
          b.sel.push_back(v);
        } else {
          b.sel.push_back(-1);
        }
        cursor_[l] = c + 1;
        return Status::OK();
      }
      case FieldNode::Kind::kStruct: {
        if (d < n.def) {
          PushNull(b);
          return ConsumeOne(n);
        }
        b.valid.push_back(1);
        for (Builder& child : b.children) RETURN_NOT_OK(ReadSlot(child));
        return Status::OK();
      }
      case FieldNode::Kind::kList:
      case FieldNode::Kind::kMap: {
        if (d < n.def) {
          PushNull(b);
          return ConsumeOne(n);
        }
        b.valid.push_back(1);
        if (d < n.elem_def) {
          b.offsets.push_back(b.offsets.back());
          return ConsumeOne(n);
        }
        int64_t count = 0;
        while (true) {
          for (Builder& child : b.children) RETURN_NOT_OK(ReadSlot(child));
          ++count;
          int64_t c2 = cursor_[l];
          if (c2 >= lv.num_entries || lv.rep.empty()) break;
          int r = lv.rep[c2];
          if (r < n.rep) break;
          if (r > n.rep) return Status::Corruption("inconsistent repetition levels in column '" + meta_[n.first_leaf].dotted_path + "'");
        }
        b.offsets.push_back(b.offsets.back() + count);
        return Status::OK();
      }
    }
    return Status::Internal("unknown field kind");
  }

  // Appends a NULL for b and, for structs, for every descendant (struct children stay aligned).
  void PushNull(Builder& b) {
    b.any_null = true;
    switch (b.node->kind) {
      case FieldNode::Kind::kLeaf: b.sel.push_back(-1); return;
      case FieldNode::Kind::kStruct:
        b.valid.push_back(0);
        for (Builder& c : b.children) PushNull(c);
        return;
      default:
        b.valid.push_back(0);
        b.offsets.push_back(b.offsets.back());
    }
  }

  // Consumes the single level entry every leaf under `n` has for a NULL or empty slot.
  Status ConsumeOne(const FieldNode& n) {
    for (int i = 0; i < n.num_leaves; ++i) {
      int l = n.first_leaf - first_ + i;
      const LeafLevels& lv = leaves_[l];
      int64_t c = cursor_[l];
      if (c >= lv.num_entries) return Status::Corruption("levels of column '" + meta_[n.first_leaf + i].dotted_path + "' end early");
      if (!lv.def.empty() && lv.def[c] >= meta_[n.first_leaf + i].max_def) ++vcursor_[l];
      cursor_[l] = c + 1;
    }
    return Status::OK();
  }

  Status CheckRecordStart(const FieldNode& n) {
    for (int i = 0; i < n.num_leaves; ++i) {
      int l = n.first_leaf - first_ + i;
      const LeafLevels& lv = leaves_[l];
      if (cursor_[l] < lv.num_entries && !lv.rep.empty() && lv.rep[cursor_[l]] != 0) {
        return Status::Corruption("column '" + meta_[n.first_leaf + i].dotted_path + "' levels disagree with its siblings");
      }
    }
    return Status::OK();
  }

  Status CheckAllConsumed(const FieldNode& n) {
    for (int i = 0; i < n.num_leaves; ++i) {
      int l = n.first_leaf - first_ + i;
      if (cursor_[l] != leaves_[l].num_entries || vcursor_[l] != leaves_[l].values->size()) {
        return Status::Corruption("column '" + meta_[n.first_leaf + i].dotted_path +
                                  "' has levels or values left over after its records");
      }
    }
    return Status::OK();
  }

  VectorPtr Finish(Builder& b) {
    const FieldNode& n = *b.node;
    if (n.kind == FieldNode::Kind::kLeaf) {
      int l = n.first_leaf - first_;
      VectorPtr v = columnar::GatherOrNull(*leaves_[l].values, b.sel.data(), static_cast<int64_t>(b.sel.size()));
      v->DropValidityIfAllValid();
      return v;
    }
    auto v = std::make_shared<Vector>(n.type);
    int64_t rows = static_cast<int64_t>(b.valid.size());
    if (b.any_null) v->validity() = std::move(b.valid);
    if (n.kind == FieldNode::Kind::kStruct) {
      for (size_t i = 0; i < b.children.size(); ++i) v->children()[i] = Finish(b.children[i]);
    } else {
      v->values().Clear();
      v->values().Append(b.offsets.data(), b.offsets.size() * sizeof(int64_t));
      if (n.kind == FieldNode::Kind::kList) {
        v->children()[0] = Finish(b.children[0]);
      } else {
        auto entries = std::make_shared<Vector>(n.type->children()[0].type);
        for (size_t i = 0; i < b.children.size() && i < 2; ++i) entries->children()[i] = Finish(b.children[i]);
        entries->SetLength(b.offsets.back());
        v->children()[0] = entries;
      }
    }
    v->SetLength(rows);
    return v;
  }

 private:
  const std::vector<LeafLevels>& leaves_;
  const std::vector<LeafColumn>& meta_;
  int first_;
  std::vector<int64_t> cursor_;
  std::vector<int64_t> vcursor_;
};

}  // namespace

Result<VectorPtr> AssembleRecords(const FieldNode& field, const std::vector<LeafLevels>& leaves,
                                  const std::vector<LeafColumn>& leaf_meta, int64_t num_records) {
  if (static_cast<int>(leaves.size()) != field.num_leaves) return Status::Internal("leaf count mismatch");
  for (const LeafLevels& lv : leaves) {
    if (!lv.values) return Status::Internal("leaf without a values vector");
  }
  Assembler a(leaves, leaf_meta, field.first_leaf);
  Builder root(&field);
  for (int64_t r = 0; r < num_records; ++r) {
    RETURN_NOT_OK(a.CheckRecordStart(field));
    RETURN_NOT_OK(a.ReadSlot(root));
  }
  RETURN_NOT_OK(a.CheckAllConsumed(field));
  return a.Finish(root);
}

}  // namespace shoal::parquet
