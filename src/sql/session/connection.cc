#include "shoal/arrow_c.h"
#include "sql/functions/arrow_stream_source.h"
#include "sql/parser/parser.h"
#include "sql/session/database_impl.h"
#include "sql/session/prepared_statement_impl.h"
#include "sql/session/streaming_result_impl.h"

namespace shoal {

Connection::Connection(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
Connection::~Connection() = default;

namespace {

// Runs every statement but the last and opens the last one as a stream.
Result<std::unique_ptr<StreamingResult>> StreamStatements(const std::shared_ptr<Connection::Impl>& conn,
                                                          const std::vector<sql::StatementPtr>& statements) {
  for (const auto& s : statements) RETURN_NOT_OK(sql::CheckNoParameters(*s));
  for (size_t i = 0; i + 1 < statements.size(); ++i) {
    conn->StartStatement();
    RETURN_NOT_OK(conn->session.Run(*statements[i]).status());
  }
  return StreamStatement(conn, *statements.back());
}

}  // namespace

Result<QueryResult> Connection::Query(std::string_view sql) {
  ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(sql, impl_->session.lex_options()));
  if (statements.empty()) return QueryResult();  // only comments or ';'
  ASSIGN_OR_RETURN(auto stream, StreamStatements(impl_, statements));
  return CollectStream(*stream);
}

Status Connection::Execute(std::string_view sql,
                           const std::function<Status(const std::string& statement, QueryResult&)>& on_result) {
  ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(sql, impl_->session.lex_options()));
  for (const auto& s : statements) RETURN_NOT_OK(sql::CheckNoParameters(*s));
  for (const auto& s : statements) {
    ASSIGN_OR_RETURN(auto stream, StreamStatement(impl_, *s));
    ASSIGN_OR_RETURN(QueryResult r, CollectStream(*stream));
    RETURN_NOT_OK(on_result(s->ToString(), r));
  }
  return Status::OK();
}

void Connection::Interrupt() { impl_->interrupted.store(true); }

Result<std::unique_ptr<StreamingResult>> Connection::Stream(std::string_view sql) {
  ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(sql, impl_->session.lex_options()));
  if (statements.empty()) return Status::InvalidArgument("no statement to stream");
  return StreamStatements(impl_, statements);
}

Status Connection::QueryArrow(std::string_view sql, ArrowArrayStream* out) {
  ASSIGN_OR_RETURN(auto stream, Stream(sql));
  return ExportArrowStream(std::move(stream), out);
}

Status Connection::RegisterArrowStream(const std::string& name, ArrowArrayStream* stream) {
  ASSIGN_OR_RETURN(auto source, sql::MakeArrowStreamSource(stream, name));
  impl_->session.RegisterStatementRelation(name, std::move(source));
  return Status::OK();
}

Result<std::unique_ptr<PreparedStatement>> Connection::Prepare(std::string_view sql) {
  ASSIGN_OR_RETURN(sql::StatementPtr statement, sql::ParseStatement(sql, impl_->session.lex_options()));
  auto impl = std::make_unique<PreparedStatement::Impl>();
  impl->conn = impl_;
  impl->statement = std::move(statement);
  return std::make_unique<PreparedStatement>(std::move(impl));
}

namespace {

Status RunTransactionStatement(Connection::Impl& c, sql::TransactionStatement::Kind kind) {
  sql::TransactionStatement t(0);
  t.transaction_kind = kind;
  c.StartStatement();
  return c.session.Run(t).status();
}

}  // namespace

Status Connection::Begin() { return RunTransactionStatement(*impl_, sql::TransactionStatement::Kind::kBegin); }
Status Connection::Commit() { return RunTransactionStatement(*impl_, sql::TransactionStatement::Kind::kCommit); }
Status Connection::Rollback() { return RunTransactionStatement(*impl_, sql::TransactionStatement::Kind::kRollback); }
bool Connection::in_transaction() const { return impl_->session.in_transaction(); }

Result<std::unique_ptr<StreamingResult>> StreamStatement(const std::shared_ptr<Connection::Impl>& conn,
                                                         const sql::Statement& statement) {
  auto start = std::chrono::steady_clock::now();
  conn->StartStatement();
  if (statement.kind == sql::StatementKind::kSelect) {
    ASSIGN_OR_RETURN(auto query, conn->session.OpenSelect(statement));
    return MakeQueryStream(std::move(query), conn, start);
  }
  ASSIGN_OR_RETURN(QueryResult r, conn->session.Run(statement));
  return MakeFinishedStream(std::move(r), conn);
}

}  // namespace shoal
