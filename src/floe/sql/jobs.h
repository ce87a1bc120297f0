#pragma once

// The background jobs of a session: streaming INSERTs keep running after their statement returns,
// until STOP JOB (optionally with a savepoint), the end of their sources, or the session's end.
// SHOW JOBS lists them with their state.

#include <string>
#include <vector>

#include "floe/util/error.h"

namespace floe::sql {

class JobManager {
 public:
  JobManager();
  // Cancels every job still running and waits for it.
  ~JobManager();
  JobManager(const JobManager&) = delete;
  JobManager& operator=(const JobManager&) = delete;
};

}  // namespace floe::sql
