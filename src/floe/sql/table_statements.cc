#include "floe/sql/table_statements.h"

namespace floe::sql {

Result<StatementResult> Execute(Session&, const CreateTable&) {
  return Unsupported("CreateTable is not implemented yet");
}

Result<StatementResult> Execute(Session&, const AlterTable&) {
  return Unsupported("AlterTable is not implemented yet");
}

Result<StatementResult> Execute(Session&, const DropTable&) {
  return Unsupported("DropTable is not implemented yet");
}

Result<StatementResult> Execute(Session&, const ShowTables&) {
  return Unsupported("ShowTables is not implemented yet");
}

Result<StatementResult> Execute(Session&, const ShowCreateTable&) {
  return Unsupported("ShowCreateTable is not implemented yet");
}

Result<StatementResult> Execute(Session&, const DescribeTable&) {
  return Unsupported("DescribeTable is not implemented yet");
}

}  // namespace floe::sql
