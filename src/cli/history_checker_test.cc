// Tests of the list-append history checker (test/support/history_checker.h) on hand-made
// histories holding one anomaly each, on valid ones, and on random serial executions.
#include "support/history_checker.h"

#include <gtest/gtest.h>

#include <random>

namespace shoal::testing {
namespace {

using Op = HistoryOp;
using Outcome = HistoryTxn::Outcome;

HistoryTxn Txn(int64_t id, std::vector<Op> ops, Outcome outcome = Outcome::kOk) {
  HistoryTxn t;
  t.id = id;
  t.process = static_cast<int>(id);
  t.outcome = outcome;
  t.ops = std::move(ops);
  return t;
}

// Keys 1..4 exist from the start with empty lists.
History Base() {
  History h;
  for (int64_t k = 1; k <= 4; ++k) h.initial_keys.insert(k);
  return h;
}

void Final(History* h, int64_t key, std::vector<int64_t> list) { h->final_rows[key] = {std::move(list)}; }

std::set<std::string> Types(const CheckReport& r) {
  std::set<std::string> types;
  for (const Anomaly& a : r.anomalies) types.insert(a.type);
  return types;
}

void ExpectOnly(const History& h, CheckedIsolation level, const std::string& type) {
  CheckReport r = CheckHistory(h, level);
  EXPECT_EQ(Types(r), std::set<std::string>{type}) << r.Describe();
}

void ExpectValid(const History& h, CheckedIsolation level) {
  CheckReport r = CheckHistory(h, level);
  EXPECT_TRUE(r.valid()) << r.Describe();
  EXPECT_EQ(r.cycles, 0);
}

constexpr auto kSer = CheckedIsolation::kSerializable;
constexpr auto kWs = CheckedIsolation::kWriteSerializable;

TEST(HistoryChecker, AcceptsSerialHistoryAndCountsEdges) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}));
  h.txns.push_back(Txn(2, {Op::Read(1, {10}), Op::Append(1, 20)}));
  h.txns.push_back(Txn(3, {Op::Read(1, {10, 20}), Op::Read(2, {})}));
  h.txns.push_back(Txn(4, {Op::Read(1, {10})}));  // an older snapshot: serializable before T2
  Final(&h, 1, {10, 20});
  Final(&h, 2, {});
  CheckReport r = CheckHistory(h, kSer);
  EXPECT_TRUE(r.valid()) << r.Describe();
  EXPECT_EQ(r.ok, 4);
  EXPECT_EQ(r.ww_edges, 1);  // T1 -> T2
  EXPECT_EQ(r.wr_edges, 3);  // T1 -> T2, T2 -> T3, T1 -> T4
  EXPECT_EQ(r.rw_edges, 1);  // T4 -> T2
  ExpectValid(h, kWs);
}

TEST(HistoryChecker, ReadsOwnAppendsWithinATransaction) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}));
  h.txns.push_back(Txn(2, {Op::Read(1, {10}), Op::Append(1, 20), Op::Read(1, {10, 20}), Op::Append(1, 21),
                           Op::Read(1, {10, 20, 21})}));
  h.txns.push_back(Txn(3, {Op::Append(2, 30), Op::Read(2, {30})}));  // no earlier read of key 2
  Final(&h, 1, {10, 20, 21});
  Final(&h, 2, {30});
  ExpectValid(h, kSer);
}

TEST(HistoryChecker, DetectsG0WriteCycle) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10), Op::Append(2, 11)}));
  h.txns.push_back(Txn(2, {Op::Append(1, 20), Op::Append(2, 21)}));
  Final(&h, 1, {10, 20});
  Final(&h, 2, {21, 11});
  ExpectOnly(h, kSer, "G0");
  ExpectOnly(h, kWs, "G0");
}

TEST(HistoryChecker, DetectsG1aAbortedRead) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}, Outcome::kAborted));
  h.txns.push_back(Txn(2, {Op::Read(1, {10})}));
  Final(&h, 1, {});
  ExpectOnly(h, kSer, "G1a");
}

TEST(HistoryChecker, DetectsAbortedWriteInFinalTable) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}, Outcome::kAborted));
  Final(&h, 1, {10});
  ExpectOnly(h, kWs, "aborted-write-visible");
}

TEST(HistoryChecker, DetectsG1bIntermediateRead) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10), Op::Append(1, 11)}));
  h.txns.push_back(Txn(2, {Op::Read(1, {10})}));
  Final(&h, 1, {10, 11});
  ExpectOnly(h, kSer, "G1b");
}

TEST(HistoryChecker, DetectsG1cCircularInformationFlow) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10), Op::Read(2, {20})}));
  h.txns.push_back(Txn(2, {Op::Append(2, 20), Op::Read(1, {10})}));
  Final(&h, 1, {10});
  Final(&h, 2, {20});
  ExpectOnly(h, kSer, "G1c");
  ExpectOnly(h, kWs, "G1c");
}

TEST(HistoryChecker, DetectsGSingleReadSkew) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10), Op::Append(2, 20)}));
  h.txns.push_back(Txn(2, {Op::Read(1, {}), Op::Read(2, {20})}));  // saw half of T1
  Final(&h, 1, {10});
  Final(&h, 2, {20});
  ExpectOnly(h, kSer, "G-single");
  ExpectOnly(h, kWs, "G-single");
}

TEST(HistoryChecker, DetectsG2WriteSkewUnderBothLevels) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Read(1, {}), Op::Append(2, 20)}));
  h.txns.push_back(Txn(2, {Op::Read(2, {}), Op::Append(1, 10)}));
  Final(&h, 1, {10});
  Final(&h, 2, {20});
  ExpectOnly(h, kSer, "G2");
  ExpectOnly(h, kWs, "G2");  // neither is a blind append
}

// T1 missed the blind insert of key 9 by T2 while a reader saw T2 but not T1: legal under
// WriteSerializable (T2 may be ordered before T1 although T1 did not see it), not Serializable.
History BlindAppendSkew() {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::ReadAbsent(9), Op::Append(1, 10)}));
  HistoryTxn blind = Txn(2, {Op::Append(9, 90)});
  blind.blind_append = true;
  h.txns.push_back(blind);
  h.txns.push_back(Txn(3, {Op::Read(9, {90}), Op::Read(1, {})}));
  Final(&h, 1, {10});
  Final(&h, 9, {90});
  return h;
}

TEST(HistoryChecker, BlindAppendAntiDependencyCycleIsG2UnderSerializable) {
  ExpectOnly(BlindAppendSkew(), kSer, "G2");
}

TEST(HistoryChecker, BlindAppendAntiDependencyCycleIsAllowedUnderWriteSerializable) {
  CheckReport r = CheckHistory(BlindAppendSkew(), kWs);
  EXPECT_TRUE(r.valid()) << r.Describe();
  EXPECT_EQ(r.allowed_blind_append_cycles, 1);
}

TEST(HistoryChecker, SameCycleWithANonBlindInsertIsG2UnderWriteSerializable) {
  History h = BlindAppendSkew();
  h.txns[1].blind_append = false;  // e.g. INSERT ... SELECT reading the table
  ExpectOnly(h, kWs, "G2");
}

TEST(HistoryChecker, DetectsStaleReadAfterOwnProcessCommitted) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}));
  h.txns.push_back(Txn(2, {Op::Read(1, {})}));  // same process, later: must see element 10
  h.txns[1].process = h.txns[0].process;
  Final(&h, 1, {10});
  ExpectOnly(h, kWs, "G-single-process");
  CheckReport r = CheckHistory(h, kSer, CheckOptions{.session_order = false});
  EXPECT_TRUE(r.valid()) << r.Describe();
}

TEST(HistoryChecker, AcceptsProcessSeeingItsEarlierCommits) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}));
  h.txns.push_back(Txn(3, {Op::Read(1, {}), Op::Append(2, 30)}));  // another process, older snapshot
  h.txns.push_back(Txn(2, {Op::Read(1, {10}), Op::Read(2, {30})}));  // serial: T3, T1, T2
  h.txns[2].process = h.txns[0].process;
  Final(&h, 1, {10});
  Final(&h, 2, {30});
  ExpectValid(h, kSer);
}

TEST(HistoryChecker, DetectsLostUpdate) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Read(1, {}), Op::Append(1, 10)}));
  h.txns.push_back(Txn(2, {Op::Read(1, {}), Op::Append(1, 20)}));
  Final(&h, 1, {20});
  ExpectOnly(h, kWs, "lost-update");
}

TEST(HistoryChecker, DetectsElementAppliedTwice) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}));
  Final(&h, 1, {10, 10});
  ExpectOnly(h, kWs, "duplicate-element");
}

TEST(HistoryChecker, DetectsDuplicatedKeyRows) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}));
  h.txns.push_back(Txn(2, {}));
  h.txns[1].ops.push_back(Op::Read(1, {10}));
  h.txns[1].ops[0].rows.push_back({10});
  Final(&h, 1, {10});
  ExpectOnly(h, kWs, "duplicate-row");
  h.final_rows[1].push_back({10});
  CheckReport r = CheckHistory(h, kWs);
  EXPECT_EQ(r.anomalies.size(), 2u) << r.Describe();
}

TEST(HistoryChecker, DetectsIncompatibleOrder) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}));
  h.txns.push_back(Txn(2, {Op::Append(1, 20)}));
  h.txns.push_back(Txn(3, {Op::Read(1, {20})}));
  Final(&h, 1, {10, 20});
  ExpectOnly(h, kSer, "incompatible-order");
}

TEST(HistoryChecker, DetectsAbsentReadOfAKeyThatAlwaysExists) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::ReadAbsent(2)}));
  Final(&h, 2, {});
  ExpectOnly(h, kSer, "incompatible-order");
}

TEST(HistoryChecker, DetectsNonRepeatableReadInATransaction) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}));
  h.txns.push_back(Txn(2, {Op::Read(1, {}), Op::Read(1, {10})}));
  Final(&h, 1, {10});
  ExpectOnly(h, kSer, "internal");
}

TEST(HistoryChecker, DetectsReadMissingOwnAppend) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10), Op::Read(1, {})}));
  Final(&h, 1, {10});
  ExpectOnly(h, kSer, "internal");
}

TEST(HistoryChecker, DetectsPhantomElement) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Read(1, {77})}));
  Final(&h, 1, {77});
  CheckReport r = CheckHistory(h, kSer);
  EXPECT_EQ(Types(r), std::set<std::string>{"phantom-element"}) << r.Describe();
}

TEST(HistoryChecker, UnknownOutcomeCountsAsCommittedOnlyWhenVisible) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10)}, Outcome::kUnknown));  // took effect
  h.txns.push_back(Txn(2, {Op::Append(2, 20)}, Outcome::kUnknown));  // did not
  h.txns.push_back(Txn(3, {Op::Read(1, {10}), Op::Append(1, 30)}));
  Final(&h, 1, {10, 30});
  Final(&h, 2, {});
  CheckReport r = CheckHistory(h, kSer);
  EXPECT_TRUE(r.valid()) << r.Describe();
  EXPECT_EQ(r.unknown, 2);
  EXPECT_EQ(r.unknown_committed, 1);
  EXPECT_EQ(r.ww_edges, 1);
}

TEST(HistoryChecker, UnknownTransactionReadingItsOwnAppendIsNotThereforeCommitted) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10), Op::Read(1, {10}), Op::Append(2, 20)}, Outcome::kUnknown));
  Final(&h, 1, {});
  Final(&h, 2, {});
  CheckReport r = CheckHistory(h, kSer);
  EXPECT_TRUE(r.valid()) << r.Describe();
  EXPECT_EQ(r.unknown_committed, 0);
}

TEST(HistoryChecker, DetectsPartlyVisibleUnknownTransaction) {
  History h = Base();
  h.txns.push_back(Txn(1, {Op::Append(1, 10), Op::Append(2, 20)}, Outcome::kUnknown));
  Final(&h, 1, {10});
  Final(&h, 2, {});
  ExpectOnly(h, kWs, "partial-commit");
}

TEST(HistoryChecker, ReportsTheShortestCycle) {
  History h = Base();
  // A long ww ring 1 -> 2 -> ... -> 6 -> 1 over keys, plus a two-transaction ww cycle 1 <-> 2.
  for (int64_t i = 1; i <= 6; ++i) h.txns.push_back(Txn(i, {}));
  int64_t e = 100;
  auto ww = [&](int64_t a, int64_t b, int64_t key) {
    h.txns[a - 1].ops.push_back(Op::Append(key, e));
    h.txns[b - 1].ops.push_back(Op::Append(key, e + 1));
    Final(&h, key, {e, e + 1});
    e += 2;
  };
  for (int64_t i = 1; i <= 6; ++i) ww(i, i % 6 + 1, 10 + i);
  ww(2, 1, 30);
  CheckReport r = CheckHistory(h, kSer);
  ASSERT_EQ(Types(r), std::set<std::string>{"G0"}) << r.Describe();
  EXPECT_NE(r.anomalies[0].detail.find("cycle of 2 transactions"), std::string::npos) << r.Describe();
}

TEST(HistoryChecker, ListTextRoundTrips) {
  std::vector<int64_t> list;
  EXPECT_TRUE(ParseList("", &list));
  EXPECT_TRUE(list.empty());
  EXPECT_TRUE(ParseList(",1,22,-3", &list));
  EXPECT_EQ(list, (std::vector<int64_t>{1, 22, -3}));
  EXPECT_EQ(FormatList(list), ",1,22,-3");
  EXPECT_FALSE(ParseList("1,2", &list));
  EXPECT_FALSE(ParseList(",1,,2", &list));
  EXPECT_FALSE(ParseList(",x", &list));
}

// Random serial executions (the oracle: each read returns the state at its point in the serial
// order) are valid; dropping an element from one read makes them invalid.
TEST(HistoryChecker, AcceptsRandomSerialExecutionsAndRejectsPerturbedOnes) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 50; ++round) {
    History h = Base();
    std::map<int64_t, std::vector<int64_t>> state = {{1, {}}, {2, {}}, {3, {}}, {4, {}}};
    int64_t next = 1;
    for (int64_t t = 1; t <= 40; ++t) {
      HistoryTxn txn = Txn(t, {});
      for (int i = 0; i < 3; ++i) {
        int64_t k = 1 + static_cast<int64_t>(rng() % 4);
        if (rng() % 2) txn.ops.push_back(Op::Read(k, state[k]));
        else {
          txn.ops.push_back(Op::Append(k, next));
          state[k].push_back(next++);
        }
      }
      h.txns.push_back(txn);
    }
    for (const auto& [k, list] : state) Final(&h, k, list);
    CheckReport r = CheckHistory(h, kSer);
    ASSERT_TRUE(r.valid()) << "round " << round << ": " << r.Describe();

    // Drop the first element from one read whose first element someone else wrote: the read is
    // no longer a prefix of the final list.
    bool perturbed = false;
    for (HistoryTxn& txn : h.txns) {
      for (Op& op : txn.ops) {
        if (perturbed || op.kind != Op::Kind::kRead || op.rows[0].size() < 2) continue;
        int64_t first = op.rows[0][0];
        bool own = false;
        for (const Op& o : txn.ops) own = own || (o.kind == Op::Kind::kAppend && o.element == first);
        if (own) continue;
        op.rows[0].erase(op.rows[0].begin());
        perturbed = true;
      }
    }
    if (!perturbed) continue;
    CheckReport bad = CheckHistory(h, kSer);
    EXPECT_FALSE(bad.valid()) << "round " << round;
  }
}

}  // namespace
}  // namespace shoal::testing
