#include "support/history_checker.h"

#include <algorithm>
#include <charconv>
#include <deque>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>

namespace shoal::testing {
namespace {

constexpr uint8_t kWw = 1, kWr = 2, kRw = 4, kPo = 8;  // kPo: process (session) order

// Where an element came from: its writer (index into History::txns) and key, and whether the
// writer appended more elements to the same key after it.
struct ElementSource {
  size_t txn = 0;
  int64_t key = 0;
  bool last_of_writer = true;
};

struct EdgeInfo {
  uint8_t mask = 0;
  int64_t key[4] = {0, 0, 0, 0};  // an example key per type (ww, wr, rw, po)
};

int TypeIndex(uint8_t type) { return type == kWw ? 0 : type == kWr ? 1 : type == kRw ? 2 : 3; }
const char* TypeName(uint8_t type) { return type == kWw ? "ww" : type == kWr ? "wr" : type == kRw ? "rw" : "po"; }

std::string ListText(const std::vector<int64_t>& list) {
  std::string s = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) s += ' ';
    s += std::to_string(list[i]);
  }
  return s + "]";
}

// The dependency graph over committed transactions (indices into History::txns).
class DependencyGraph {
 public:
  explicit DependencyGraph(const History& h) : h_(h) {}

  void Add(size_t from, size_t to, uint8_t type, int64_t key) {
    if (from == to) return;
    EdgeInfo& e = edges_[{from, to}];
    if (!(e.mask & type)) e.key[TypeIndex(type)] = key;
    e.mask |= type;
  }
  int Count(uint8_t type) const {
    int n = 0;
    for (const auto& [ft, e] : edges_) n += (e.mask & type) ? 1 : 0;
    return n;
  }
  // Drops rw edges into transactions for which `drop_target` holds.
  void DropRwInto(const std::function<bool(size_t)>& drop_target) {
    for (auto it = edges_.begin(); it != edges_.end();) {
      if ((it->second.mask & kRw) && drop_target(it->first.second)) it->second.mask &= ~kRw;
      if (it->second.mask == 0) it = edges_.erase(it);
      else ++it;
    }
  }
  const std::map<std::pair<size_t, size_t>, EdgeInfo>& edges() const { return edges_; }

  // Strongly connected components (Tarjan, iterative) of the edges whose mask meets `mask`;
  // returns the component id per node, and the number of nodes per component in *sizes.
  std::vector<int> Components(uint8_t mask, std::vector<int>* sizes) const {
    size_t n = h_.txns.size();
    std::vector<std::vector<size_t>> adj(n);
    for (const auto& [ft, e] : edges_) {
      if (e.mask & mask) adj[ft.first].push_back(ft.second);
    }
    std::vector<int> index(n, -1), low(n, 0), comp(n, -1);
    std::vector<bool> on_stack(n, false);
    std::vector<size_t> stack;
    int next_index = 0;
    sizes->clear();
    for (size_t root = 0; root < n; ++root) {
      if (index[root] >= 0) continue;
      std::vector<std::pair<size_t, size_t>> frames = {{root, 0}};  // node, next child
      index[root] = low[root] = next_index++;
      stack.push_back(root);
      on_stack[root] = true;
      while (!frames.empty()) {
        auto& [v, child] = frames.back();
        if (child < adj[v].size()) {
          size_t w = adj[v][child++];
          if (index[w] < 0) {
            index[w] = low[w] = next_index++;
            stack.push_back(w);
            on_stack[w] = true;
            frames.push_back({w, 0});
          } else if (on_stack[w]) {
            low[v] = std::min(low[v], index[w]);
          }
          continue;
        }
        if (low[v] == index[v]) {
          int id = static_cast<int>(sizes->size());
          sizes->push_back(0);
          for (;;) {
            size_t w = stack.back();
            stack.pop_back();
            on_stack[w] = false;
            comp[w] = id;
            ++(*sizes)[id];
            if (w == v) break;
          }
        }
        size_t done = v;
        frames.pop_back();
        if (!frames.empty()) low[frames.back().first] = std::min(low[frames.back().first], low[done]);
      }
    }
    return comp;
  }

  // Shortest path from `from` to `to` over edges meeting `mask` inside component `c`; empty when
  // there is none. The path lists nodes from `from` to `to`.
  std::vector<size_t> ShortestPath(size_t from, size_t to, uint8_t mask, const std::vector<int>& comp, int c) const {
    std::unordered_map<size_t, size_t> parent;
    std::deque<size_t> queue = {from};
    parent[from] = from;
    while (!queue.empty()) {
      size_t v = queue.front();
      queue.pop_front();
      if (v == to) break;
      auto it = edges_.lower_bound({v, 0});
      for (; it != edges_.end() && it->first.first == v; ++it) {
        size_t w = it->first.second;
        if (!(it->second.mask & mask) || comp[w] != c || parent.count(w)) continue;
        parent[w] = v;
        queue.push_back(w);
      }
    }
    if (!parent.count(to)) return {};
    std::vector<size_t> path = {to};
    while (path.back() != from) path.push_back(parent[path.back()]);
    std::reverse(path.begin(), path.end());
    return path;
  }

  // Describes `cycle` (first node repeated at the end), naming each step by its strongest type
  // within `mask` (ww, then wr, then rw); counts the rw steps in *rw_steps.
  std::string DescribeCycle(const std::vector<size_t>& cycle, uint8_t mask, int* rw_steps) const {
    std::ostringstream out;
    *rw_steps = 0;
    for (size_t i = 0; i + 1 < cycle.size(); ++i) {
      const EdgeInfo& e = edges_.at({cycle[i], cycle[i + 1]});
      uint8_t m = e.mask & mask;
      uint8_t type = (m & kWw) ? kWw : (m & kWr) ? kWr : (m & kRw) ? kRw : kPo;
      if (type == kRw) ++*rw_steps;
      out << TxnName(cycle[i]) << " -" << TypeName(type);
      if (type != kPo) out << "(k=" << e.key[TypeIndex(type)] << ")";
      out << "-> ";
    }
    out << TxnName(cycle.back());
    return out.str();
  }

  std::string TxnName(size_t t) const {
    std::string name = "T";
    name += std::to_string(h_.txns[t].id);
    name += "(p";
    name += std::to_string(h_.txns[t].process);
    name += ')';
    return name;
  }

 private:
  const History& h_;
  std::map<std::pair<size_t, size_t>, EdgeInfo> edges_;
};

class Checker {
 public:
  Checker(const History& h, CheckedIsolation level, const CheckOptions& options)
      : h_(h), level_(level), options_(options), graph_(h) {}

  CheckReport Run() {
    CountOutcomes();
    if (!IndexElements()) return std::move(report_);
    CheckFinalLists();
    DecideCommitted();
    CheckAppendsVisible();
    CheckReads();
    AddWriteEdges();
    if (options_.session_order) AddProcessOrderEdges();
    report_.ww_edges = graph_.Count(kWw);
    report_.wr_edges = graph_.Count(kWr);
    report_.rw_edges = graph_.Count(kRw);
    report_.po_edges = graph_.Count(kPo);
    if (level_ == CheckedIsolation::kWriteSerializable) {
      CountAllowedBlindAppendCycles();
      graph_.DropRwInto([this](size_t t) { return h_.txns[t].blind_append; });
    }
    FindCycles();
    return std::move(report_);
  }

 private:
  void Flag(const std::string& type, const std::string& detail) { report_.anomalies.push_back({type, detail}); }
  std::string Name(size_t t) const { return graph_.TxnName(t); }

  void CountOutcomes() {
    for (const HistoryTxn& t : h_.txns) {
      switch (t.outcome) {
        case HistoryTxn::Outcome::kOk: ++report_.ok; break;
        case HistoryTxn::Outcome::kAborted: ++report_.aborted; break;
        case HistoryTxn::Outcome::kUnknown: ++report_.unknown; break;
      }
    }
  }

  bool IndexElements() {
    for (size_t t = 0; t < h_.txns.size(); ++t) {
      std::map<int64_t, int64_t> last;  // key -> last element this txn appended to it
      for (const HistoryOp& op : h_.txns[t].ops) {
        if (op.kind != HistoryOp::Kind::kAppend) continue;
        if (!source_.emplace(op.element, ElementSource{t, op.key, true}).second) {
          Flag("internal", "element " + std::to_string(op.element) + " appended twice in the history (workload bug)");
          return false;
        }
        auto it = last.find(op.key);
        if (it != last.end()) source_[it->second].last_of_writer = false;
        last[op.key] = op.element;
      }
    }
    return true;
  }

  void CheckFinalLists() {
    for (const auto& [key, rows] : h_.final_rows) {
      if (rows.empty()) continue;
      if (rows.size() > 1) Flag("duplicate-row", "final table has " + std::to_string(rows.size()) + " rows for key " + std::to_string(key));
      const std::vector<int64_t>& list = rows[0];
      final_[key] = list;
      std::map<int64_t, size_t>& pos = position_[key];
      for (size_t i = 0; i < list.size(); ++i) {
        int64_t e = list[i];
        if (!pos.emplace(e, i).second) {
          Flag("duplicate-element", "element " + std::to_string(e) + " appears twice in key " + std::to_string(key) +
                                        "'s final list " + ListText(list));
          continue;
        }
        auto src = source_.find(e);
        if (src == source_.end() || src->second.key != key) {
          Flag("phantom-element", "key " + std::to_string(key) + "'s final list holds element " + std::to_string(e) +
                                      " that no transaction appended to it");
          continue;
        }
        visible_.insert(src->second.txn);
        if (h_.txns[src->second.txn].outcome == HistoryTxn::Outcome::kAborted) {
          Flag("aborted-write-visible", "element " + std::to_string(e) + " of aborted " + Name(src->second.txn) +
                                            " is in key " + std::to_string(key) + "'s final list");
        }
      }
    }
  }

  // Committed = acknowledged, or unknown with a write visible in the final table or in another
  // transaction's read.
  void DecideCommitted() {
    for (size_t t = 0; t < h_.txns.size(); ++t) {
      for (const HistoryOp& op : h_.txns[t].ops) {
        if (op.kind != HistoryOp::Kind::kRead) continue;
        for (const auto& row : op.rows) {
          for (int64_t e : row) {
            auto src = source_.find(e);
            // A transaction reading its own appends says nothing about its commit.
            if (src != source_.end() && src->second.txn != t) visible_.insert(src->second.txn);
          }
        }
      }
    }
    committed_.assign(h_.txns.size(), false);
    for (size_t t = 0; t < h_.txns.size(); ++t) {
      switch (h_.txns[t].outcome) {
        case HistoryTxn::Outcome::kOk: committed_[t] = true; break;
        case HistoryTxn::Outcome::kAborted: break;
        case HistoryTxn::Outcome::kUnknown:
          committed_[t] = visible_.count(t) > 0;
          if (committed_[t]) ++report_.unknown_committed;
          break;
      }
    }
  }

  // Every append of a committed transaction is in its key's final list exactly once (duplicates
  // were flagged above).
  void CheckAppendsVisible() {
    for (size_t t = 0; t < h_.txns.size(); ++t) {
      if (!committed_[t]) continue;
      for (const HistoryOp& op : h_.txns[t].ops) {
        if (op.kind != HistoryOp::Kind::kAppend) continue;
        auto pos = position_.find(op.key);
        if (pos != position_.end() && pos->second.count(op.element)) continue;
        bool ok = h_.txns[t].outcome == HistoryTxn::Outcome::kOk;
        Flag(ok ? "lost-update" : "partial-commit",
             std::string(ok ? "acknowledged " : "partly visible ") + Name(t) + "'s append of " +
                 std::to_string(op.element) + " to key " + std::to_string(op.key) + " is missing from the final list " +
                 (final_.count(op.key) ? ListText(final_[op.key]) : std::string("(no row)")));
      }
    }
  }

  void CheckReads() {
    for (size_t t = 0; t < h_.txns.size(); ++t) {
      std::map<int64_t, std::vector<int64_t>> own;       // key -> own appends so far
      std::map<int64_t, std::vector<int64_t>> external;  // key -> first external observation
      std::set<int64_t> external_absent;
      for (const HistoryOp& op : h_.txns[t].ops) {
        if (op.kind == HistoryOp::Kind::kAppend) {
          own[op.key].push_back(op.element);
          continue;
        }
        int64_t k = op.key;
        if (op.rows.size() > 1) {
          Flag("duplicate-row", Name(t) + " read " + std::to_string(op.rows.size()) + " rows for key " + std::to_string(k));
          continue;
        }
        const std::vector<int64_t>& mine = own[k];
        if (op.rows.empty()) {
          if (!mine.empty()) {
            Flag("internal", Name(t) + " read key " + std::to_string(k) + " as absent after appending to it");
          } else if (external.count(k)) {
            Flag("internal", Name(t) + " read key " + std::to_string(k) + " as " + ListText(external[k]) +
                                 ", then as absent (non-repeatable read)");
          } else if (h_.initial_keys.count(k)) {
            Flag("incompatible-order", Name(t) + " read key " + std::to_string(k) + " as absent, but it always exists");
          } else if (external_absent.insert(k).second && committed_[t]) {
            AbsentReadEdge(t, k);
          }
          continue;
        }
        const std::vector<int64_t>& list = op.rows[0];
        if (list.size() < mine.size() || !std::equal(mine.begin(), mine.end(), list.end() - mine.size())) {
          Flag("internal", Name(t) + " read key " + std::to_string(k) + " as " + ListText(list) +
                               ", which does not end with its own appends " + ListText(mine));
          continue;
        }
        std::vector<int64_t> ext(list.begin(), list.end() - mine.size());
        if (external_absent.count(k) && !ext.empty()) {
          Flag("internal", Name(t) + " read key " + std::to_string(k) + " as absent, then as " + ListText(ext) +
                               " (non-repeatable read)");
          continue;
        }
        auto prior = external.find(k);
        if (prior != external.end()) {
          if (prior->second != ext) {
            Flag("internal", Name(t) + " read key " + std::to_string(k) + " as " + ListText(prior->second) + ", then as " +
                                 ListText(ext) + " (non-repeatable read)");
          }
          continue;
        }
        external[k] = ext;
        CheckExternalRead(t, k, ext);
      }
    }
  }

  void AbsentReadEdge(size_t t, int64_t k) {
    auto f = final_.find(k);
    if (f == final_.end() || f->second.empty()) return;
    auto src = source_.find(f->second[0]);
    if (src != source_.end() && committed_[src->second.txn]) graph_.Add(t, src->second.txn, kRw, k);
  }

  void CheckExternalRead(size_t t, int64_t k, const std::vector<int64_t>& ext) {
    std::string what = Name(t) + " read key " + std::to_string(k) + " as " + ListText(ext);
    for (int64_t e : ext) {
      auto src = source_.find(e);
      if (src == source_.end() || src->second.key != k) {
        Flag("phantom-element", what + ": element " + std::to_string(e) + " was never appended to that key");
        return;
      }
      if (src->second.txn == t) {
        Flag("internal", what + ": its own element " + std::to_string(e) + " appears before other writes");
        return;
      }
      if (h_.txns[src->second.txn].outcome == HistoryTxn::Outcome::kAborted) {
        Flag("G1a", what + ": element " + std::to_string(e) + " was written by aborted " + Name(src->second.txn));
        return;
      }
    }
    if (!ext.empty()) {
      const ElementSource& last = source_.at(ext.back());
      if (!last.last_of_writer) {
        Flag("G1b", what + ": element " + std::to_string(ext.back()) + " is an intermediate append of " +
                        Name(last.txn) + ", which appended more to the key");
        return;
      }
    }
    const std::vector<int64_t>& final_list = final_.count(k) ? final_[k] : kEmpty;
    if (ext.size() > final_list.size() || !std::equal(ext.begin(), ext.end(), final_list.begin())) {
      Flag("incompatible-order", what + ", not a prefix of the final list " + ListText(final_list));
      return;
    }
    if (!committed_[t]) return;
    if (!ext.empty()) graph_.Add(source_.at(ext.back()).txn, t, kWr, k);
    if (ext.size() < final_list.size()) {
      size_t next_writer = source_.at(final_list[ext.size()]).txn;
      if (committed_[next_writer]) graph_.Add(t, next_writer, kRw, k);
    }
  }

  void AddWriteEdges() {
    for (const auto& [key, list] : final_) {
      for (size_t i = 0; i + 1 < list.size(); ++i) {
        auto a = source_.find(list[i]), b = source_.find(list[i + 1]);
        if (a == source_.end() || b == source_.end()) continue;
        if (committed_[a->second.txn] && committed_[b->second.txn]) graph_.Add(a->second.txn, b->second.txn, kWw, key);
      }
    }
  }

  // Each committed transaction precedes the next committed one of the same process: a process
  // starts a transaction only after the previous one ended.
  void AddProcessOrderEdges() {
    std::map<int, size_t> last;
    for (size_t t = 0; t < h_.txns.size(); ++t) {
      if (!committed_[t]) continue;
      auto it = last.find(h_.txns[t].process);
      if (it != last.end()) graph_.Add(it->second, t, kPo, 0);
      last[h_.txns[t].process] = t;
    }
  }

  void CountAllowedBlindAppendCycles() {
    std::vector<int> sizes;
    std::vector<int> comp = graph_.Components(kWw | kWr | kRw, &sizes);
    for (const auto& [ft, e] : graph_.edges()) {
      if ((e.mask & kRw) && h_.txns[ft.second].blind_append && comp[ft.first] == comp[ft.second]) {
        ++report_.allowed_blind_append_cycles;
      }
    }
  }

  // Reports one shortest cycle per strongly connected component and class: G0 (ww only), G1c
  // (ww and wr, at least one wr), G-single (exactly one rw) or else G2.
  void FindCycles() {
    ReportComponents(kWw, "G0", [this](const std::vector<int>& comp, int c) {
      for (const auto& [ft, e] : graph_.edges()) {
        if ((e.mask & kWw) && comp[ft.first] == c && comp[ft.second] == c) {
          return Closed(ft.first, graph_.ShortestPath(ft.second, ft.first, kWw, comp, c));
        }
      }
      return std::vector<size_t>{};
    });
    ReportComponents(kWw | kWr, "G1c", [this](const std::vector<int>& comp, int c) {
      return ShortestThrough(kWr, kWw | kWr, comp, c);
    });
    std::vector<int> sizes;
    std::vector<int> comp = graph_.Components(kWw | kWr | kRw, &sizes);
    for (int c = 0; c < static_cast<int>(sizes.size()); ++c) {
      if (sizes[c] < 2) continue;
      std::vector<size_t> cycle = ShortestThrough(kRw, kWw | kWr, comp, c);
      const char* type = "G-single";
      if (cycle.empty()) {
        cycle = ShortestThrough(kRw, kWw | kWr | kRw, comp, c);
        type = "G2";
      }
      if (cycle.empty()) continue;  // only ww/wr cycles: reported as G0 / G1c
      int rw = 0;
      std::string text = graph_.DescribeCycle(cycle, kWw | kWr | kRw, &rw);
      ++report_.cycles;
      Flag(type, "cycle of " + std::to_string(cycle.size() - 1) + " transactions (" + std::to_string(sizes[c]) +
                     " in the component): " + text);
    }
    if (options_.session_order) FindProcessOrderCycles();
  }

  // Cycles that need a process-order step (a transaction not seeing what an earlier transaction
  // of its own process did): G0/G1c/G-single/G2 with the suffix "-process".
  void FindProcessOrderCycles() {
    constexpr uint8_t kAll = kWw | kWr | kRw | kPo;
    std::vector<int> sizes;
    std::vector<int> comp = graph_.Components(kAll, &sizes);
    for (int c = 0; c < static_cast<int>(sizes.size()); ++c) {
      if (sizes[c] < 2) continue;
      std::vector<size_t> cycle = ShortestThrough(kPo, kAll, comp, c);
      if (cycle.empty()) continue;  // no cycle needs process order: reported above
      int rw = 0;
      std::string text = graph_.DescribeCycle(cycle, kAll, &rw);
      bool has_wr = text.find("-wr(") != std::string::npos;
      std::string type = rw == 0 ? (has_wr ? "G1c-process" : "G0-process") : rw == 1 ? "G-single-process" : "G2-process";
      ++report_.cycles;
      Flag(type, "cycle of " + std::to_string(cycle.size() - 1) + " transactions: " + text);
    }
  }

  void ReportComponents(uint8_t mask, const char* type,
                        const std::function<std::vector<size_t>(const std::vector<int>&, int)>& find) {
    std::vector<int> sizes;
    std::vector<int> comp = graph_.Components(mask, &sizes);
    for (int c = 0; c < static_cast<int>(sizes.size()); ++c) {
      if (sizes[c] < 2) continue;
      std::vector<size_t> cycle = find(comp, c);
      if (cycle.empty()) continue;
      int rw = 0;
      ++report_.cycles;
      Flag(type, "cycle of " + std::to_string(cycle.size() - 1) + " transactions: " + graph_.DescribeCycle(cycle, mask, &rw));
    }
  }

  // `path` from b to a closed by the edge a -> b: the cycle a, b, ..., a (empty if no path).
  static std::vector<size_t> Closed(size_t a, const std::vector<size_t>& path) {
    if (path.empty()) return {};
    std::vector<size_t> cycle = {a};
    cycle.insert(cycle.end(), path.begin(), path.end());
    return cycle;
  }

  // The shortest cycle in component c that starts with an edge of type `first` and continues over
  // edges meeting `rest`; empty when there is none. Tries at most kMaxSearches first edges.
  std::vector<size_t> ShortestThrough(uint8_t first, uint8_t rest, const std::vector<int>& comp, int c) {
    constexpr int kMaxSearches = 2000;
    std::vector<size_t> best;
    int searches = 0;
    for (const auto& [ft, e] : graph_.edges()) {
      if (!(e.mask & first) || comp[ft.first] != c || comp[ft.second] != c) continue;
      // An rw step that is also ww or wr closes a G0/G1c cycle, reported as such.
      if (first == kRw && (e.mask & (kWw | kWr))) continue;
      // A process-order step that is also a dependency closes a cycle reported without it.
      if (first == kPo && (e.mask & (kWw | kWr | kRw))) continue;
      if (++searches > kMaxSearches) break;
      std::vector<size_t> cycle = Closed(ft.first, graph_.ShortestPath(ft.second, ft.first, rest, comp, c));
      if (!cycle.empty() && (best.empty() || cycle.size() < best.size())) best = cycle;
      if (best.size() == 3) break;  // two transactions: cannot be shorter
    }
    return best;
  }

  const History& h_;
  CheckedIsolation level_;
  CheckOptions options_;
  DependencyGraph graph_;
  CheckReport report_;
  std::unordered_map<int64_t, ElementSource> source_;
  std::map<int64_t, std::vector<int64_t>> final_;
  std::map<int64_t, std::map<int64_t, size_t>> position_;
  std::set<size_t> visible_;
  std::vector<bool> committed_;
  const std::vector<int64_t> kEmpty;
};

}  // namespace

std::string CheckReport::Summary() const {
  std::map<std::string, int> by_type;
  for (const Anomaly& a : anomalies) ++by_type[a.type];
  std::ostringstream out;
  out << "txns ok=" << ok << " aborted=" << aborted << " unknown=" << unknown << " (committed " << unknown_committed
      << ") edges ww=" << ww_edges << " wr=" << wr_edges << " rw=" << rw_edges << " po=" << po_edges << " cycles=" << cycles
      << " allowed-blind-append-rw-on-cycles=" << allowed_blind_append_cycles << " anomalies=" << anomalies.size();
  for (const auto& [type, n] : by_type) out << " " << type << "=" << n;
  return out.str();
}

std::string CheckReport::Describe(size_t max_details) const {
  std::string text = Summary();
  for (size_t i = 0; i < anomalies.size() && i < max_details; ++i) {
    text += "\n  " + anomalies[i].type + ": " + anomalies[i].detail;
  }
  if (anomalies.size() > max_details) text += "\n  ... " + std::to_string(anomalies.size() - max_details) + " more";
  return text;
}

CheckReport CheckHistory(const History& history, CheckedIsolation level, const CheckOptions& options) {
  return Checker(history, level, options).Run();
}

std::string FormatList(const std::vector<int64_t>& list) {
  std::string s;
  for (int64_t e : list) {
    s += ',';
    s += std::to_string(e);
  }
  return s;
}

bool ParseList(const std::string& text, std::vector<int64_t>* list) {
  list->clear();
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != ',') return false;
    size_t end = text.find(',', i + 1);
    if (end == std::string::npos) end = text.size();
    int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data() + i + 1, text.data() + end, v);
    if (ec != std::errc() || p != text.data() + end) return false;
    list->push_back(v);
    i = end;
  }
  return true;
}

}  // namespace shoal::testing
