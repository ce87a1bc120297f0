#include "floe/sql/write_statements.h"

namespace floe::sql {

Result<StatementResult> Execute(Session&, const Insert&) {
  return Unsupported("Insert is not implemented yet");
}

Result<StatementResult> Execute(Session&, const ShowJobs&) {
  return Unsupported("ShowJobs is not implemented yet");
}

Result<StatementResult> Execute(Session&, const StopJob&) {
  return Unsupported("StopJob is not implemented yet");
}

Result<StatementResult> ExecuteCreateTableAs(Session&, const CreateTable&) {
  return Unsupported("CREATE TABLE AS is not implemented yet");
}

}  // namespace floe::sql
