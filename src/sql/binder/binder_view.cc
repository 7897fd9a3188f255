// View binding: a view's stored SQL text parsed and bound where the view is named.
#include <strings.h>

#include "sql/binder/binder.h"
#include "sql/parser/parser.h"

namespace shoal::sql {

namespace {
// Views naming views deeper than this are rejected (a cycle made by two processes, say).
constexpr size_t kMaxViewNesting = 32;
}  // namespace

Result<LogicalPtr> Binder::BindView(const ViewDefinition& view) {
  const std::string what = "view " + view.name;
  for (const auto& v : binding_views_) {
    if (strcasecmp(v.c_str(), view.name.c_str()) == 0) return Status::Binder(what + " references itself");
  }
  if (binding_views_.size() >= kMaxViewNesting) {
    return Status::Binder(what + ": views nested more than " + std::to_string(kMaxViewNesting) + " deep");
  }
  auto parsed = ParseStatement(view.sql);
  if (!parsed.ok()) return WithoutErrorOffset(parsed.status().WithContext(what));
  StatementPtr statement = std::move(parsed).value();
  if (statement->kind != StatementKind::kSelect) {
    return Status::Corruption(what + ": the stored text is not a query");
  }
  // The view sees the catalog only, not the CTEs, working tables or (as correlations) the
  // columns of the query naming it.
  auto saved_ctes = std::move(ctes_);
  auto saved_binding_ctes = std::move(binding_ctes_);
  auto saved_working = std::move(working_tables_);
  auto saved_frames = std::move(frames_);
  const size_t saved_active_frames = active_frames_;
  ctes_.clear();
  binding_ctes_.clear();
  working_tables_.clear();
  frames_.clear();
  active_frames_ = 0;
  binding_views_.push_back(view.name);
  Result<LogicalPtr> plan = BindQueryNode(*statement->As<SelectStatement>().query);
  binding_views_.pop_back();
  ctes_ = std::move(saved_ctes);
  binding_ctes_ = std::move(saved_binding_ctes);
  working_tables_ = std::move(saved_working);
  frames_ = std::move(saved_frames);
  active_frames_ = saved_active_frames;
  if (!plan.ok()) return WithoutErrorOffset(plan.status().WithContext(what));
  LogicalPtr p = std::move(plan).value();
  if (p->columns.size() != view.columns.size()) {
    return Status::Binder(what + ": its query now returns " + std::to_string(p->columns.size()) +
                          " columns, but the view was created with " + std::to_string(view.columns.size()) +
                          "; recreate the view");
  }
  for (size_t i = 0; i < p->columns.size(); ++i) p->columns[i].name = view.columns[i];
  return p;
}

}  // namespace shoal::sql
