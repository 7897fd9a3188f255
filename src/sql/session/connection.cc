#include "sql/session/database_impl.h"
#include "sql/parser/parser.h"

namespace shoal {

Connection::Connection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Connection::~Connection() = default;

Result<QueryResult> Connection::Query(std::string_view sql) {
  QueryResult last;
  RETURN_NOT_OK(Execute(sql, [&](const std::string&, QueryResult& r) {
    last = std::move(r);
    return Status::OK();
  }));
  return last;
}

Status Connection::Execute(std::string_view sql,
                           const std::function<Status(const std::string& statement, QueryResult&)>& on_result) {
  ASSIGN_OR_RETURN(auto statements, sql::ParseStatements(sql));
  for (const auto& s : statements) {
    impl_->interrupted.store(false);
    ASSIGN_OR_RETURN(QueryResult r, impl_->session.Run(*s));
    RETURN_NOT_OK(on_result(s->ToString(), r));
  }
  return Status::OK();
}

void Connection::Interrupt() { impl_->interrupted.store(true); }

}  // namespace shoal
