#pragma once

// Connections shared by the threads of one catalog. A thread leases a connection for one
// operation and gives it back when the lease ends; connections are opened on demand (there are at
// most as many as operations ever ran at once) and a connection that was lost is dropped instead
// of being handed out again. Thread-safe.

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "floe/catalog/sql/connection_internal.h"

namespace floe::catalog {

class SqlConnectionPool {
 public:
  using Opener = std::function<Result<std::unique_ptr<SqlConnection>>()>;

  explicit SqlConnectionPool(Opener opener) : opener_(std::move(opener)) {}
  SqlConnectionPool(const SqlConnectionPool&) = delete;
  SqlConnectionPool& operator=(const SqlConnectionPool&) = delete;

  class Lease {
   public:
    Lease(SqlConnectionPool* pool, std::unique_ptr<SqlConnection> conn)
        : pool_(pool), conn_(std::move(conn)) {}
    Lease(Lease&&) = default;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (conn_) pool_->Return(std::move(conn_));
    }
    SqlConnection* operator->() const { return conn_.get(); }
    SqlConnection& operator*() const { return *conn_; }

   private:
    SqlConnectionPool* pool_;
    std::unique_ptr<SqlConnection> conn_;
  };

  // An idle connection, or a new one (kIO when it cannot be opened).
  Result<Lease> Acquire();

 private:
  void Return(std::unique_ptr<SqlConnection> conn);

  Opener opener_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<SqlConnection>> idle_;
};

}  // namespace floe::catalog
