// TransactionState: a transaction's identity, read set and staged write set as plain data, and
// its JSON form, so it can travel between processes and be committed by another one: a
// prepared transaction's file (txn/prepared.h) and a distributed job's staged changes
// (shoal/distributed.h) both are this JSON.
//
// Read predicates travel as SQL text and are bound again by a PredicateRebinder on arrival;
// one that cannot be bound makes the transaction depend on the whole table (conservative: it
// can only add conflicts, never miss one). Deletion vectors travel as the row positions staged
// (base64 portable roaring bitmaps), not as written DV files: the receiving transaction writes
// them at commit, after a rebase may have merged them with a winner's.
// Thread-safety: plain values and free functions.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "delta/json_fields.h"
#include "expr/expr.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"
#include "txn/isolation_level.h"
#include "txn/read_set.h"
#include "txn/transaction.h"
#include "txn/write_set.h"

namespace shoal::txn {

// Binds a stored predicate's SQL text to the table schema (the SQL layer supplies one).
using PredicateRebinder =
    std::function<Result<expr::ExprPtr>(const std::string& sql, const scan::TableSchema& schema)>;

struct TransactionState {
  std::string txn_id;
  int64_t read_version = -1;
  IsolationLevel isolation_level = IsolationLevel::kWriteSerializable;
  std::string operation = "WRITE";
  delta::Json operation_parameters = delta::Json::object();
  std::string engine_info = kEngineInfo;
  // After ParseTransactionState the predicates carry their SQL and a null expr until
  // BindReadPredicates.
  ReadSet read;
  WriteSet write;
};

// The state of `txn` (isolation level: the one it was begun with, WriteSerializable when it
// follows the table's default).
TransactionState CaptureState(const Transaction& txn);

// The JSON object of `state` ("formatVersion" 1; prepared transaction files add "id").
delta::Json TransactionStateToJson(const TransactionState& state);

// Parses TransactionStateToJson's object; Corruption naming `what` for malformed input.
Result<TransactionState> ParseTransactionState(const delta::Json& json, const std::string& what);

// Binds the predicates of `read` that have no expression yet to `schema` with `rebinder`;
// a predicate that does not bind is dropped and `read` depends on the whole table instead.
void BindReadPredicates(const scan::TableSchema* schema, const PredicateRebinder& rebinder, ReadSet* read);

}  // namespace shoal::txn
