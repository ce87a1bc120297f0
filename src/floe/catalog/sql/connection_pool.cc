#include "floe/catalog/sql/connection_pool_internal.h"

namespace floe::catalog {

Result<SqlConnectionPool::Lease> SqlConnectionPool::Acquire() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<SqlConnection> conn = std::move(idle_.back());
      idle_.pop_back();
      return Lease(this, std::move(conn));
    }
  }
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<SqlConnection> conn, opener_());
  return Lease(this, std::move(conn));
}

void SqlConnectionPool::Return(std::unique_ptr<SqlConnection> conn) {
  if (conn->broken()) return;
  // A lease that ended inside a transaction (an early return) must not hand it on.
  conn->Rollback();
  if (conn->broken()) return;
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(conn));
}

}  // namespace floe::catalog
