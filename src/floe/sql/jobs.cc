#include "floe/sql/jobs.h"

namespace floe::sql {

JobManager::JobManager() = default;
JobManager::~JobManager() = default;

}  // namespace floe::sql
