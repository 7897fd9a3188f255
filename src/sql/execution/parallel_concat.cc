#include "sql/execution/parallel_concat.h"

#include <cstring>
#include <functional>

#include "sql/execution/task_runner.h"

namespace shoal::sql {

using columnar::Vector;
using columnar::VectorPtr;

namespace {
constexpr int64_t kRowsPerPiece = 1 << 16;

bool IsFlatFixed(const columnar::DataType& t) {
  return !t.HasOffsets() && !t.IsNested() && t.id() != columnar::TypeId::kNull && t.SlotWidth() > 0;
}
}  // namespace

Result<std::vector<VectorPtr>> ConcatColumnsParallel(ExecContext& ctx, const std::vector<columnar::BatchPtr>& batches,
                                                     size_t ncols) {
  std::vector<VectorPtr> out(ncols);
  if (batches.size() == 1) {
    for (size_t c = 0; c < ncols; ++c) out[c] = batches[0]->columns[c];
    return out;
  }
  const size_t nb = batches.size();
  std::vector<int64_t> row_start(nb + 1, 0);
  for (size_t b = 0; b < nb; ++b) row_start[b + 1] = row_start[b] + batches[b]->num_rows;
  const int64_t total = row_start[nb];
  // Pieces: runs of consecutive batches of about kRowsPerPiece rows.
  std::vector<size_t> piece_start{0};
  for (size_t b = 0; b < nb; ++b) {
    if (row_start[b + 1] - row_start[piece_start.back()] >= kRowsPerPiece && b + 1 < nb) piece_start.push_back(b + 1);
  }
  piece_start.push_back(nb);
  const size_t pieces = piece_start.size() - 1;

  std::vector<std::function<void()>> tasks;
  std::vector<std::vector<int64_t>> byte_starts(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    const auto& type = batches[0]->columns[c]->type();
    bool any_nulls = false;
    for (const auto& b : batches) any_nulls |= b->columns[c]->MayHaveNulls();
    if (!IsFlatFixed(*type) && !type->IsStringLike()) {
      tasks.push_back([&, c] {
        std::vector<VectorPtr> parts;
        for (const auto& b : batches) parts.push_back(b->columns[c]);
        out[c] = columnar::Concat(parts);
      });
      continue;
    }
    auto v = Vector::Make(type);
    if (any_nulls) v->validity().assign(static_cast<size_t>(total), 1);
    if (type->IsStringLike()) {
      auto& starts = byte_starts[c];
      starts.assign(nb + 1, 0);
      for (size_t b = 0; b < nb; ++b) {
        const Vector& p = *batches[b]->columns[c];
        starts[b + 1] = starts[b] + (p.offsets()[p.size()] - p.offsets()[0]);
      }
      v->values().Resize(static_cast<size_t>(total + 1) * sizeof(int64_t));
      v->bytes().Resize(static_cast<size_t>(starts[nb]));
      v->offsets()[total] = starts[nb];
    } else {
      v->Resize(total);
    }
    out[c] = v;
    const int width = type->SlotWidth();
    for (size_t k = 0; k < pieces; ++k) {
      tasks.push_back([&, c, k, width] {
        Vector& dst = *out[c];
        for (size_t b = piece_start[k]; b < piece_start[k + 1]; ++b) {
          const Vector& src = *batches[b]->columns[c];
          const int64_t n = src.size();
          const int64_t at = row_start[b];
          if (!dst.validity().empty() && src.MayHaveNulls()) {
            std::memcpy(dst.validity().data() + at, src.validity().data(), n);
          }
          if (dst.type()->IsStringLike()) {
            const int64_t* so = src.offsets();
            int64_t* d = dst.offsets() + at;
            const int64_t shift = byte_starts[c][b] - so[0];
            for (int64_t i = 0; i < n; ++i) d[i] = so[i] + shift;
            const int64_t len = so[n] - so[0];
            if (len > 0) std::memcpy(dst.bytes().data() + byte_starts[c][b], src.bytes().data() + so[0], len);
          } else if (n > 0) {
            std::memcpy(dst.values().data() + at * width, src.values().data(), static_cast<size_t>(n) * width);
          }
        }
      });
    }
  }
  RETURN_NOT_OK(RunTasks(ctx, static_cast<int64_t>(tasks.size()), [&](int64_t t, int) {
    tasks[t]();
    return Status::OK();
  }));
  for (size_t c = 0; c < ncols; ++c) {
    if (out[c]->type()->IsStringLike()) out[c]->SetLength(total);
  }
  return out;
}

}  // namespace shoal::sql
