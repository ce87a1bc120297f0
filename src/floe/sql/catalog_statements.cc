#include "floe/sql/catalog_statements.h"

namespace floe::sql {

Result<StatementResult> Execute(Session&, const CreateCatalog&) {
  return Unsupported("CreateCatalog is not implemented yet");
}

Result<StatementResult> Execute(Session&, const DropCatalog&) {
  return Unsupported("DropCatalog is not implemented yet");
}

Result<StatementResult> Execute(Session&, const UseCatalog&) {
  return Unsupported("UseCatalog is not implemented yet");
}

Result<StatementResult> Execute(Session&, const ShowCatalogs&) {
  return Unsupported("ShowCatalogs is not implemented yet");
}

Result<StatementResult> Execute(Session&, const ShowCurrentCatalog&) {
  return Unsupported("ShowCurrentCatalog is not implemented yet");
}

Result<StatementResult> Execute(Session&, const ShowCurrentDatabase&) {
  return Unsupported("ShowCurrentDatabase is not implemented yet");
}

Result<StatementResult> Execute(Session&, const CreateDatabase&) {
  return Unsupported("CreateDatabase is not implemented yet");
}

Result<StatementResult> Execute(Session&, const DropDatabase&) {
  return Unsupported("DropDatabase is not implemented yet");
}

Result<StatementResult> Execute(Session&, const AlterDatabase&) {
  return Unsupported("AlterDatabase is not implemented yet");
}

Result<StatementResult> Execute(Session&, const UseDatabase&) {
  return Unsupported("UseDatabase is not implemented yet");
}

Result<StatementResult> Execute(Session&, const ShowDatabases&) {
  return Unsupported("ShowDatabases is not implemented yet");
}

}  // namespace floe::sql
